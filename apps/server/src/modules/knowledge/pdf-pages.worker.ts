// A worker thread that reads PDFs, one at a time: a `read` message brings a file's bytes and is
// answered with each page's blocks as soon as the page is extracted, then an end or an error; a
// `stop` ends the file early. See pdf-pages-thread.ts.
import { parentPort } from 'node:worker_threads';
import { KnowledgeFileError, pdfPages } from '@athena/knowledge-core/pdf';
import type { PdfThreadMessage, PdfThreadRequest } from './pdf-pages-thread.ts';

const post = (message: PdfThreadMessage) => parentPort?.postMessage(message);
let stopped = false;

async function read(bytes: Uint8Array) {
  stopped = false;
  try {
    // Between pages the loop awaits pdfjs, so a `stop` message is seen there.
    for await (const page of pdfPages(bytes)) {
      if (stopped) break;
      post({ type: 'page', page });
    }
    post({ type: 'end' });
  } catch (error) {
    if (error instanceof KnowledgeFileError) post({ type: 'file-error', code: error.code, detail: error.detail });
    else post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

parentPort?.on('message', (request: PdfThreadRequest) => {
  if (request.type === 'stop') stopped = true;
  else void read(request.bytes);
});
