import { Worker } from 'node:worker_threads';
import { KnowledgeFileError, type PdfPage } from '@athena/knowledge-core/pdf';

export type PdfThreadRequest = { type: 'read'; bytes: Uint8Array } | { type: 'stop' };
export type PdfThreadMessage =
  | { type: 'page'; page: PdfPage }
  | { type: 'end' }
  | { type: 'file-error'; code: KnowledgeFileError['code']; detail: string }
  | { type: 'error'; message: string };

/** How a worker's file ended: read to the end (or stopped), refused, or the worker broke. */
type Outcome = { done: true } | { error: Error };

/**
 * Where the worker's code is: beside the bundled server (dist/, see scripts/build-server.mjs), or
 * as TypeScript beside this file when the server runs from source (tests, benchmarks, tsx).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './pdf-pages.worker.ts' : './pdf-pages.worker.mjs', import.meta.url);
/** A hostile PDF can ask pdfjs for a lot of memory: the worker is capped and only it dies. */
const WORKER_HEAP_MB = 1024;
/**
 * A worker that has finished a file waits this long for the next before it ends. Starting one
 * costs ~0.3 s, and a fresh one reads a 1 000-page file 1–2 s slower than a warmed-up one, so an
 * upload and its indexing, or a batch of files, share one; an idle server holds none.
 */
const IDLE_MS = 30_000;
/** How long a worker asked to stop midway may take to say so before it is ended instead. */
const STOP_WAIT_MS = 2_000;

/** From source, the thread first registers tsx's loader (a worker's `--import` flag is not honoured). */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!FROM_SOURCE) return new Worker(WORKER_URL, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

interface IdleWorker {
  worker: Worker;
  /** Ends the worker once it has waited IDLE_MS. */
  timer: NodeJS.Timeout;
  /** Forgets it should it end some other way while waiting. */
  onExit: () => void;
}

/** Workers waiting for their next file. */
const idle: IdleWorker[] = [];

function forget(entry: IdleWorker) {
  const index = idle.indexOf(entry);
  if (index >= 0) idle.splice(index, 1);
  clearTimeout(entry.timer);
  entry.worker.off('exit', entry.onExit);
}

function takeWorker(): Worker {
  const entry = idle.pop();
  if (!entry) return startWorker();
  forget(entry);
  entry.worker.ref();
  return entry.worker;
}

function putBack(worker: Worker) {
  worker.unref(); // an idle worker never keeps the process alive
  const entry: IdleWorker = {
    worker,
    timer: setTimeout(() => {
      forget(entry);
      void worker.terminate();
    }, IDLE_MS).unref(),
    onExit: () => forget(entry),
  };
  worker.once('exit', entry.onExit);
  idle.push(entry);
}

/**
 * A PDF's pages, extracted in a worker thread. Each step yields every page that has arrived since
 * the last (at least one), so a consumer slower than the parse takes larger bites and one that is
 * faster takes pages one by one. Meanwhile the server's own thread stays free: a 1 000-page PDF no
 * longer holds up every other request for the 1–2 s its extraction takes, and its segments are cut
 * and written while later pages are still being read. Leaving the loop early, or an abort, stops
 * the worker's reading. Throws KnowledgeFileError for a file pdfjs cannot read.
 */
export async function* pdfPagesInThread(bytes: Uint8Array, signal?: AbortSignal): AsyncGenerator<PdfPage[]> {
  const worker = takeWorker();
  const arrived: PdfPage[] = [];
  // Typed by assertion: assignments happen in the listeners, which narrowing cannot see.
  let outcome = null as Outcome | null;
  let wake = () => {};
  const settle = (result: Outcome) => {
    outcome ??= result;
    wake();
  };
  const onMessage = (message: PdfThreadMessage) => {
    if (message.type === 'page') arrived.push(message.page);
    else if (message.type === 'end') settle({ done: true });
    else if (message.type === 'file-error') settle({ error: new KnowledgeFileError(message.code, message.detail) });
    else settle({ error: new Error(`PDF worker: ${message.message}`) });
    wake();
  };
  // A worker that failed or exited is never reused, whatever the error says about the file.
  let alive = true;
  const tooBig = new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', 'The PDF needs too much memory to read.');
  const onError = (error: Error & { code?: string }) => {
    alive = false;
    settle({ error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooBig : error });
  };
  const onExit = (code: number) => {
    alive = false;
    settle({ error: new Error(`PDF worker exited with code ${code}`) });
  };
  const onAbort = () => wake();
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  signal?.addEventListener('abort', onAbort, { once: true });
  // A copy, moved rather than cloned: the caller keeps its bytes.
  const copy = new Uint8Array(bytes);
  worker.postMessage({ type: 'read', bytes: copy } satisfies PdfThreadRequest, [copy.buffer]);
  try {
    for (;;) {
      signal?.throwIfAborted();
      if (arrived.length === 0 && outcome === null) await new Promise<void>((resolve) => (wake = resolve));
      signal?.throwIfAborted();
      // Pages posted before the worker finished are delivered before its end (or its error).
      if (arrived.length > 0) {
        yield arrived.splice(0);
        continue;
      }
      if (outcome && 'error' in outcome) throw outcome.error;
      return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (outcome === null) {
      // Left midway: ask the worker to stop and wait for its end, so it can read the next file.
      worker.postMessage({ type: 'stop' } satisfies PdfThreadRequest);
      const gaveUp = setTimeout(() => settle({ error: new Error('PDF worker did not stop') }), STOP_WAIT_MS);
      while (outcome === null) await new Promise<void>((resolve) => (wake = resolve));
      clearTimeout(gaveUp);
    }
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    // A worker that answered (an end, or a refusal of the file) is kept; any other is ended.
    const answered = 'done' in outcome || outcome.error instanceof KnowledgeFileError;
    if (answered && alive) putBack(worker);
    else await worker.terminate();
  }
}
