import { knowledgeRoutes, knowledgeUpload } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { isAborted, upload } from '../../lib/upload-client.ts';
import { problemText } from './file-checks.ts';
import {
  enqueue,
  markFailed,
  markUploaded,
  markUploading,
  queueSummary,
  removeEntry,
  retryEntry,
  setProgress,
  startable,
  type UploadEntry,
} from './upload-queue.ts';
import { newBatchId, uploadErrorText } from './upload-transfer.ts';

let sequence = 0;

/**
 * The upload page's files: each is checked, then waits for one of three upload slots, uploads
 * with its own progress and ends uploaded (a unit) or failed with the server's reason. Removing a
 * file stops its upload; leaving the page stops them all.
 */
export function useUploadQueue(knowledgeId: string) {
  const { t } = useTranslation();
  // One state, so every change (progress, results, new files, the ten-file notice) is a pure update.
  const [state, setState] = useState<{ entries: UploadEntry[]; tooMany: boolean }>({ entries: [], tooMany: false });
  const { entries, tooMany } = state;
  const setEntries = useCallback(
    (change: (list: UploadEntry[]) => UploadEntry[]) => setState((s) => ({ ...s, entries: change(s.entries) })),
    [],
  );
  const files = useRef(new Map<string, File>());
  const aborts = useRef(new Map<string, () => void>());
  // One batch per visit of the page: the server, like the page, takes at most ten files per batch.
  const [batchId] = useState(newBatchId);

  useEffect(() => {
    const running = aborts.current;
    return () => {
      for (const abort of running.values()) abort();
    };
  }, []);

  const start = useCallback(
    (key: string) => {
      const file = files.current.get(key);
      if (!file || aborts.current.has(key)) return;
      setEntries((list) => markUploading(list, key));
      // The server decides the kind by content, so the browser's guess at a type is not sent.
      const handle = upload(knowledgeUpload, file, {
        query: { knowledge_id: knowledgeId, file_name: file.name, batch_id: batchId },
        onProgress: (percent) => setEntries((list) => setProgress(list, key, percent)),
      });
      aborts.current.set(key, handle.abort);
      handle.promise
        .then(
          (unit) => setEntries((list) => markUploaded(list, key, unit)),
          (error: unknown) => {
            if (isAborted(error)) return;
            const text = uploadErrorText(error, currentLocale(), t('knowledge.upload.connectionLost'));
            setEntries((list) => markFailed(list, key, text));
          },
        )
        .finally(() => aborts.current.delete(key));
    },
    [knowledgeId, batchId, setEntries, t],
  );

  // Whenever a slot frees up (or files arrive), the next queued files start.
  useEffect(() => {
    for (const key of startable(entries)) start(key);
  }, [entries, start]);

  const add = (picked: File[]) => {
    const language = currentLocale();
    const batch = ++sequence;
    const keyOf = (index: number) => `u${batch}-${index}`;
    // Kept for every picked file; refused ones are never started and go when removed.
    for (const [index, file] of picked.entries()) files.current.set(keyOf(index), file);
    setState((s) => {
      const result = enqueue(s.entries, picked, keyOf, (problem) => problemText(problem, language));
      return { entries: result.entries, tooMany: result.tooMany };
    });
  };

  /**
   * Takes a file off the list. One already uploaded is deleted from the base too: removing it means
   * not wanting it, and it would otherwise keep its place in the batch on the server.
   */
  const remove = async (key: string) => {
    aborts.current.get(key)?.();
    aborts.current.delete(key);
    const unit = entries.find((entry) => entry.key === key)?.unit;
    if (unit) {
      try {
        await api(knowledgeRoutes.unitDelete, { id: unit.id });
      } catch (error) {
        showErrorNotice(error);
        return;
      }
    }
    files.current.delete(key);
    setState((s) => ({ entries: removeEntry(s.entries, key), tooMany: false }));
  };

  const retry = (key: string) => {
    setState((s) => {
      const next = retryEntry(s.entries, key);
      return next ? { entries: next, tooMany: false } : { ...s, tooMany: true };
    });
  };

  return {
    entries,
    tooMany,
    add,
    remove,
    retry,
    dismissTooMany: () => setState((s) => ({ ...s, tooMany: false })),
    ...queueSummary(entries),
  };
}

export type UploadQueue = ReturnType<typeof useUploadQueue>;
