import { KNOWLEDGE_MAX_FILES, type KnowledgeUnit } from '@athena/contract';
import { checkFile, type FileProblem } from './file-checks.ts';

/**
 * One file on the upload page. `refused`: the browser's own checks said no (extension, size,
 * empty) — the same file would fail the same way, so it can only be removed. `failed`: the server
 * refused it (duplicate, content not what the name says…) or the connection broke; it may be tried
 * again.
 */
export type UploadStatus = 'queued' | 'uploading' | 'uploaded' | 'refused' | 'failed';

export interface UploadEntry {
  key: string;
  name: string;
  size: number;
  status: UploadStatus;
  /** 0–100 while uploading. */
  percent: number;
  /** Why it was refused or failed, in words for the reader. */
  error: string | null;
  /** The unit the server made of it (status `not_indexed`), once uploaded. */
  unit: KnowledgeUnit | null;
}

/** Files sent at the same time; the rest wait their turn (ten 20 MB files at once would crawl). */
export const UPLOAD_CONCURRENCY = 3;

/** Whether an entry takes one of the ten places (at most 10 files per upload). */
export const takesPlace = (entry: UploadEntry) =>
  entry.status === 'queued' || entry.status === 'uploading' || entry.status === 'uploaded';

export const placesLeft = (entries: UploadEntry[]) =>
  Math.max(0, KNOWLEDGE_MAX_FILES - entries.filter(takesPlace).length);

/**
 * Adds picked or dropped files: each is checked first; files that pass take a place while places
 * are left. `tooMany` says some files were left out because all ten places were taken.
 */
export function enqueue(
  entries: UploadEntry[],
  files: readonly { name: string; size: number }[],
  keyOf: (index: number) => string,
  describe: (problem: FileProblem) => string,
): { entries: UploadEntry[]; added: string[]; tooMany: boolean } {
  let room = placesLeft(entries);
  let tooMany = false;
  const next = [...entries];
  const added: string[] = [];
  files.forEach((file, index) => {
    const problem = checkFile(file);
    const base = { key: keyOf(index), name: file.name, size: file.size, percent: 0, unit: null };
    if (problem) {
      next.push({ ...base, status: 'refused', error: describe(problem) });
      added.push(base.key);
      return;
    }
    if (room === 0) {
      tooMany = true;
      return;
    }
    room -= 1;
    next.push({ ...base, status: 'queued', error: null });
    added.push(base.key);
  });
  return { entries: next, added, tooMany };
}

/** The queued entries to start now so that at most `concurrency` upload at once, oldest first. */
export function startable(entries: UploadEntry[], concurrency = UPLOAD_CONCURRENCY): string[] {
  const busy = entries.filter((entry) => entry.status === 'uploading').length;
  return entries
    .filter((entry) => entry.status === 'queued')
    .slice(0, Math.max(0, concurrency - busy))
    .map((entry) => entry.key);
}

const patch = (entries: UploadEntry[], key: string, change: Partial<UploadEntry>) =>
  entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry));

export const markUploading = (entries: UploadEntry[], key: string) =>
  patch(entries, key, { status: 'uploading', percent: 0, error: null });

/** Progress only moves forward and only while uploading (a late event after the end is ignored). */
export const setProgress = (entries: UploadEntry[], key: string, percent: number) =>
  entries.map((entry) =>
    entry.key === key && entry.status === 'uploading'
      ? { ...entry, percent: Math.max(entry.percent, Math.min(99, Math.round(percent))) }
      : entry,
  );

export const markUploaded = (entries: UploadEntry[], key: string, unit: KnowledgeUnit) =>
  patch(entries, key, { status: 'uploaded', percent: 100, error: null, unit });

export const markFailed = (entries: UploadEntry[], key: string, error: string) =>
  patch(entries, key, { status: 'failed', error });

export const removeEntry = (entries: UploadEntry[], key: string) => entries.filter((entry) => entry.key !== key);

/** Puts a failed file back in the queue; null when it cannot be (not failed, or no place left). */
export function retryEntry(entries: UploadEntry[], key: string): UploadEntry[] | null {
  const entry = entries.find((item) => item.key === key);
  if (entry?.status !== 'failed' || placesLeft(entries) === 0) return null;
  return patch(entries, key, { status: 'queued', percent: 0, error: null });
}

/** What the page needs to decide its buttons. */
export function queueSummary(entries: UploadEntry[]) {
  const units = entries.flatMap((entry) => (entry.status === 'uploaded' && entry.unit ? [entry.unit] : []));
  return {
    units,
    busy: entries.some((entry) => entry.status === 'queued' || entry.status === 'uploading'),
    problems: entries.filter((entry) => entry.status === 'refused' || entry.status === 'failed').length,
    full: placesLeft(entries) === 0,
  };
}
