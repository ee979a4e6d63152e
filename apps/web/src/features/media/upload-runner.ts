import { MEDIA_UPLOAD_METADATA, MEDIA_UPLOAD_PATH } from '@athena/contract';
import type { DetailedError, Upload } from 'tus-js-client';
import { requestHeaders } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { chunkSizeFor, nextSpeed, tooLargeText, tusFailure } from './upload-math.ts';
import { type UploadEntry, useUploadStore } from './upload-store.ts';

/** Files sent at the same time; the rest wait in the queue. */
const PARALLEL = 3;

const uploads = new Map<string, Upload>();
const samples = new Map<string, { at: number; bytes: number }>();
let seq = 0;

const store = () => useUploadStore.getState();
const entryOf = (id: string) => store().entries.find((e) => e.id === id);

/**
 * Which earlier upload a file continues: the same file (name, type, size, modification time) to
 * the same library of the same space. The library is part of it so a file dropped into another
 * library never resumes into the first one.
 */
function fingerprint(entry: UploadEntry, spaceId: string): string {
  const { file } = entry;
  return [FINGERPRINT_PREFIX, spaceId, entry.libraryId, file.name, file.type, file.size, file.lastModified].join('/');
}

export const FINGERPRINT_PREFIX = 'athena-media';

/** The session headers without the JSON content type (tus sets its own on each request). */
export function tusHeaders(): Record<string, string> {
  const { 'content-type': _json, ...rest } = requestHeaders('');
  return rest;
}

/** Queues files for a library; refuses what is over 5 GB at once, with the server's text. */
export function enqueue(files: File[], libraryId: string, failedText: string): void {
  const language = currentLocale();
  const added = files.map<UploadEntry>((file) => {
    const refusal = tooLargeText(file.size, language);
    seq += 1;
    return {
      id: `u${Date.now()}-${seq}`,
      file,
      libraryId,
      name: file.name,
      size: file.size,
      sent: 0,
      status: refusal ? 'failed' : 'queued',
      speed: null,
      error: refusal,
      resumed: false,
      itemId: null,
    };
  });
  store().add(added);
  // The file is back: it is no longer an interrupted upload waiting for its file (upload-resume.ts).
  store().forgetUnfinished(files.map((file) => ({ name: file.name, libraryId })));
  pump(failedText);
}

/** Starts queued files while fewer than PARALLEL are on their way. */
function pump(failedText: string): void {
  const running = store().entries.filter((e) => e.status === 'uploading').length;
  const waiting = store().entries.filter((e) => e.status === 'queued' && !uploads.has(e.id));
  for (const entry of waiting.slice(0, Math.max(0, PARALLEL - running))) void begin(entry, failedText);
}

async function begin(entry: UploadEntry, failedText: string): Promise<void> {
  const spaceId = useUserStore.getState().spaceId ?? '';
  // tus-js-client loads with the first upload, not with every page of the app.
  const tus = await import('tus-js-client');
  const { patch } = store();
  const upload = new tus.Upload(entry.file, {
    endpoint: MEDIA_UPLOAD_PATH,
    // Chunks, so no proxy body limit or timeout sees a whole file (docs/media.md).
    chunkSize: chunkSizeFor(entry.file.size),
    retryDelays: [0, 1000, 3000, 5000],
    headers: tusHeaders(),
    metadata: { [MEDIA_UPLOAD_METADATA.library]: entry.libraryId, [MEDIA_UPLOAD_METADATA.name]: entry.name },
    fingerprint: async () => fingerprint(entry, spaceId),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    // Retrying a refusal (quota, size, a foreign upload) cannot help; a lost connection can.
    onShouldRetry: (error) => {
      const status = error.originalResponse?.getStatus() ?? 0;
      return status === 0 || status >= 500 || status === 423;
    },
    onProgress: (sent) => {
      const now = performance.now();
      const last = samples.get(entry.id);
      samples.set(entry.id, { at: now, bytes: sent });
      const current = entryOf(entry.id);
      const speed =
        last && sent >= last.bytes ? nextSpeed(current?.speed ?? null, sent - last.bytes, now - last.at) : null;
      patch(entry.id, { sent, ...(speed !== null ? { speed } : {}) });
    },
    onSuccess: ({ lastResponse }) => {
      uploads.delete(entry.id);
      patch(entry.id, { status: 'done', sent: entry.size, itemId: lastResponse.getHeader('Media-Item-Id') ?? null });
      void queryClient.invalidateQueries({ queryKey: queryKeys.media.all(spaceId) });
      pump(failedText);
    },
    onError: (error) => {
      const detailed = error as DetailedError;
      const response = detailed.originalResponse ?? null;
      const failure = tusFailure(response?.getStatus() ?? null, response?.getBody() ?? null, failedText);
      uploads.delete(entry.id);
      patch(entry.id, { status: 'failed', error: failure.message, speed: null });
      pump(failedText);
    },
  });
  uploads.set(entry.id, upload);
  patch(entry.id, { status: 'uploading', error: null });
  // A reload or a lost network left the same file half sent: continue from the server's offset.
  const previous = await upload.findPreviousUploads();
  const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
  if (latest) {
    upload.resumeFromPreviousUpload(latest);
    patch(entry.id, { resumed: true });
  }
  if (entryOf(entry.id)?.status !== 'uploading') return; // paused or canceled meanwhile
  samples.delete(entry.id);
  upload.start();
}

export function pause(id: string): void {
  const upload = uploads.get(id);
  store().patch(id, { status: 'paused', speed: null });
  void upload?.abort();
}

export function resume(id: string, failedText: string): void {
  const upload = uploads.get(id);
  if (!upload) {
    store().patch(id, { status: 'queued', error: null });
    pump(failedText);
    return;
  }
  samples.delete(id);
  store().patch(id, { status: 'uploading', error: null });
  upload.start();
}

/** A failed file starts over from the server's offset (its fingerprint is still stored). */
export function retry(id: string, failedText: string): void {
  uploads.delete(id);
  store().patch(id, { status: 'queued', error: null, speed: null });
  pump(failedText);
}

/** Stops the file and tells the server to drop what it received (and forgets the fingerprint). */
export function cancel(id: string, failedText: string): void {
  const upload = uploads.get(id);
  uploads.delete(id);
  store().patch(id, { status: 'canceled', speed: null });
  void upload?.abort(true).catch(() => undefined);
  pump(failedText);
}
