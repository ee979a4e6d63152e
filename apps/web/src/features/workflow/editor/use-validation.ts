import { ERRORS, type ErrorKey, formatMessage, type Language } from '@athena/contract';
import { type GraphProblem, validateGraph } from '@athena/workflow-engine';
import { useEffect, useState } from 'react';
import { currentGraph, useEditorStore } from './editor-store.ts';

/** How long the document must rest before it is checked again (a 2 000-node check takes ~10 ms). */
const VALIDATE_AFTER_MS = 250;

/** The document's problems, checked by the engine a moment after each change. */
export function useValidation(): GraphProblem[] {
  const version = useEditorStore((state) => state.version);
  const loaded = useEditorStore((state) => state.nodes.length > 0);
  const [problems, setProblems] = useState<GraphProblem[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the document currentGraph reads
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => {
      setProblems(validateGraph(currentGraph()));
    }, VALIDATE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [version, loaded]);
  return problems;
}

const isErrorKey = (code: string): code is ErrorKey => Object.hasOwn(ERRORS, code);

/** A problem in the reader's language, from the error catalogue (the engine names nodes by title). */
export function problemText(problem: GraphProblem, language: Language): string {
  return isErrorKey(problem.code) ? formatMessage(problem.code, language, problem.params) : problem.code;
}
