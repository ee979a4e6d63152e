import { ERRORS, type WorkflowProblem, workflowRoutes } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../../lib/api-client.ts';
import { currentGraph, loadGraph, useEditorStore } from './editor-store.ts';
import { serverOnlyProblems } from './server-problems.ts';

/** The draft is saved this long after the last change. */
export const AUTOSAVE_DELAY_MS = 1_000;

export type SaveState = 'saved' | 'pending' | 'saving' | 'error' | 'conflict';

/**
 * Saves the draft a second after the last change, on the revision it started from. Someone else
 * saving in between (another tab) is a conflict: the person chooses to reload (losing these
 * changes) or overwrite (saving these on the latest revision).
 */
export function useAutosave(workflowId: string, initialRevision: number, initialExtras: WorkflowProblem[]) {
  const version = useEditorStore((state) => state.version);
  const readOnly = useEditorStore((state) => state.readOnly);
  const [state, setState] = useState<SaveState>('saved');
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [extras, setExtras] = useState(initialExtras);
  const revision = useRef(initialRevision);
  const saving = useRef(false);
  const again = useRef(false);
  const savedVersion = useRef(0);
  const conflict = useRef(false);

  const save = useCallback(async () => {
    if (saving.current) {
      again.current = true;
      return;
    }
    saving.current = true;
    const at = useEditorStore.getState().version;
    setState('saving');
    try {
      const result = await api(workflowRoutes.draftSave, {
        id: workflowId,
        graph: currentGraph(),
        base_revision: revision.current,
      });
      revision.current = result.revision;
      savedVersion.current = at;
      setSavedAt(result.saved_at);
      setState(useEditorStore.getState().version === at ? 'saved' : 'pending');
    } catch (error) {
      const isConflict = error instanceof ApiError && error.code === ERRORS.WORKFLOW_DRAFT_CONFLICT.code;
      conflict.current = isConflict;
      again.current = false;
      setState(isConflict ? 'conflict' : 'error');
    } finally {
      saving.current = false;
    }
    if (again.current && !conflict.current) {
      again.current = false;
      void save();
    }
  }, [workflowId]);

  useEffect(() => {
    if (readOnly || version === 0 || version === savedVersion.current || conflict.current) return;
    setState((current) => (current === 'saving' ? current : 'pending'));
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [version, readOnly, save]);

  /** Takes the other tab's draft; this tab's unsaved changes are dropped. */
  const reload = useCallback(async () => {
    const fresh = await api(workflowRoutes.detail, { id: workflowId });
    revision.current = fresh.draft_revision;
    conflict.current = false;
    savedVersion.current = 0;
    loadGraph(fresh.draft, fresh.locked || !fresh.can_edit);
    setExtras(serverOnlyProblems(fresh.draft, fresh.problems));
    setSavedAt(fresh.draft_saved_at);
    setState('saved');
  }, [workflowId]);

  /** Saves this tab's document over the other's, on the latest revision. */
  const overwrite = useCallback(async () => {
    const fresh = await api(workflowRoutes.detail, { id: workflowId });
    revision.current = fresh.draft_revision;
    conflict.current = false;
    await save();
  }, [workflowId, save]);

  /** Saves now (before publishing); resolves false when it did not save. */
  const flush = useCallback(async () => {
    if (useEditorStore.getState().version !== savedVersion.current && !useEditorStore.getState().readOnly) await save();
    return !conflict.current && useEditorStore.getState().version === savedVersion.current;
  }, [save]);

  return { state, savedAt, extras, reload, overwrite, flush, dirty: state !== 'saved' };
}
