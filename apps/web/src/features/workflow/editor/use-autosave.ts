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
  // The save under way (with the ones it makes after itself for changes made meanwhile), or null.
  const saving = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const savedVersion = useRef(0);
  const conflict = useRef(false);

  /** One save of the document as it is now, on the revision it started from. */
  const saveOnce = useCallback(async () => {
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
    }
  }, [workflowId]);

  /**
   * Saves now; asked while a save is under way, saves once more after it (the document changed
   * meanwhile) and resolves only then, so whoever waits for it waits for the document they saw.
   */
  const save = useCallback((): Promise<void> => {
    if (saving.current) {
      again.current = true;
      return saving.current;
    }
    const run = (async () => {
      try {
        do {
          again.current = false;
          await saveOnce();
        } while (again.current && !conflict.current);
      } finally {
        saving.current = null;
      }
    })();
    saving.current = run;
    return run;
  }, [saveOnce]);

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

  /**
   * Saves now (before publishing or a run); resolves false when it did not save. The autosave may
   * be under way, started before the last change (a second after the one before it): that save is
   * waited for, then what it missed is saved, rather than the draft being reported unsaved.
   */
  const flush = useCallback(async () => {
    if (saving.current) await saving.current;
    const { version, readOnly } = useEditorStore.getState();
    if (version !== savedVersion.current && !readOnly && !conflict.current) await save();
    return !conflict.current && useEditorStore.getState().version === savedVersion.current;
  }, [save]);

  return { state, savedAt, extras, reload, overwrite, flush, dirty: state !== 'saved' };
}
