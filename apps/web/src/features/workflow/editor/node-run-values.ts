import type { WorkflowNode } from '@athena/contract';
import { readsOf } from '@athena/workflow-engine';

/** One value the node reads, keyed `nodeId.output` as the single-node run takes it. */
export interface Wanted {
  key: string;
  label: string;
}

/**
 * What a node reads from outside itself, once each: the selectors of its fields and the references
 * in its texts. Environment variables come from the saved draft, and what a container reads from
 * its own body or items is produced by the run itself, so neither is asked for. A start node reads
 * its own inputs.
 */
export function wantedValues(node: WorkflowNode, titleOf: (id: string) => string): Wanted[] {
  if (node.type === 'start') {
    return node.data.inputs.map((input) => ({ key: `${node.id}.${input.name}`, label: input.label || input.name }));
  }
  const seen = new Map<string, Wanted>();
  for (const read of readsOf(node)) {
    if (read.scope === 'own' || read.scope === 'body') continue;
    const [source, output] = read.selector;
    if (!source || !output || source === 'env') continue;
    const key = `${source}.${output}`;
    if (!seen.has(key)) seen.set(key, { key, label: source === 'sys' ? key : `${titleOf(source)} · ${output}` });
  }
  return [...seen.values()];
}

/** Text that parses as JSON is sent as that value (a number, a list), anything else as the text. */
export function handGivenValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
