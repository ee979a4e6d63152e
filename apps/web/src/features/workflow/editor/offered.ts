import type { Selector } from '@athena/contract';
import { type OfferedVariable, offeredVariables, outputsOf } from '@athena/workflow-engine';
import { useMemo } from 'react';
import { currentGraph, useEditorStore } from './editor-store.ts';

/** Exactly what a node may read (the engine's answer), recomputed when the document changes. */
export function useOffered(nodeId: string): OfferedVariable[] {
  const version = useEditorStore((state) => state.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the document currentGraph reads
  return useMemo(() => offeredVariables(currentGraph(), nodeId), [nodeId, version]);
}

/** A selector as one string for a select's value; node ids and output names hold no NUL. */
export const selectorKey = (selector: readonly string[]) => selector.join('\u0000');
export const keySelector = (key: string): Selector => key.split('\u0000');

/** The text a template uses to read a variable. */
export const referenceOf = (variable: Pick<OfferedVariable, 'node_id' | 'name'>) =>
  `{{#${variable.node_id}.${variable.name}#}}`;

/**
 * For a container's own settings that read its body (an iteration's output, a loop's break
 * condition): the body nodes' outputs, and what the body's nodes may read themselves.
 */
export function useBodyOffered(containerId: string, withReads: boolean): OfferedVariable[] {
  const version = useEditorStore((state) => state.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the document currentGraph reads
  return useMemo(() => {
    const graph = currentGraph();
    const body = graph.nodes.filter((node) => node.parent_id === containerId);
    const own = body.flatMap((node) =>
      outputsOf(node).map((output) => ({
        node_id: node.id,
        node_title: node.title || node.id,
        node_type: node.type,
        ...output,
      })),
    );
    const first = body[0];
    const reads = withReads && first ? offeredVariables(graph, first.id) : [];
    const seen = new Set<string>();
    return [...own, ...reads].filter((item) => {
      const key = selectorKey([item.node_id, item.name]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }, [containerId, withReads, version]);
}
