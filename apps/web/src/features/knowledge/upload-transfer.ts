import { ERRORS, KNOWLEDGE_UPLOAD_PATH, type KnowledgeUnit, type Language } from '@athena/contract';
import { ApiError, errorText, REQUEST_TIMEOUT_MS, requestHeaders, settleResponse } from '../../lib/api-client.ts';
import { uploadFailedText } from './file-checks.ts';

export interface UploadHandle {
  promise: Promise<KnowledgeUnit>;
  abort: () => void;
}

/**
 * The upload URL: the raw bytes go in the body; the base, the file's name and the batch (the
 * server takes at most 10 files per batch, as the page does) in the query.
 */
export const uploadUrl = (knowledgeId: string, fileName: string, batchId: string) =>
  `${KNOWLEDGE_UPLOAD_PATH}?knowledge_id=${encodeURIComponent(knowledgeId)}&file_name=${encodeURIComponent(fileName)}&batch_id=${batchId}`;

/** A random UUID v4. crypto.randomUUID exists only on HTTPS or localhost; a LAN install may be plain HTTP. */
export function newBatchId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Marks an upload stopped on purpose (the file was removed), which is not a failure to show. */
export const isAborted = (error: unknown) => error instanceof ApiError && error.code === 'aborted';

/**
 * Uploads one file with XMLHttpRequest, the only browser API that reports upload progress. It
 * sends the API client's own headers and hands the answer to the client's envelope rules, so a
 * lapsed session or a lost space behaves as on every other call. The server decides the kind by
 * content, so the browser's guess at a type is not sent.
 */
export function uploadKnowledgeFile(
  knowledgeId: string,
  batchId: string,
  file: File,
  onProgress: (percent: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<KnowledgeUnit>((resolve, reject) => {
    xhr.open('POST', uploadUrl(knowledgeId, file.name, batchId));
    xhr.timeout = REQUEST_TIMEOUT_MS;
    for (const [name, value] of Object.entries(requestHeaders('application/octet-stream'))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      try {
        const ok = xhr.status >= 200 && xhr.status < 300;
        resolve(settleResponse({ ok, status: xhr.status }, xhr.responseText) as KnowledgeUnit);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError('', undefined, 'network'));
    xhr.ontimeout = () => reject(new ApiError('', undefined, 'timeout'));
    xhr.onabort = () => reject(new ApiError('', 'aborted', 'network', true));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

/**
 * Why an upload failed, for the file's row: the server's own words when it answered (duplicate,
 * unsupported content, size), "file size exceeded" for a body the server cut off (413 without an
 * envelope), else "Upload failed: <connection problem>".
 */
export function uploadErrorText(error: unknown, language: Language, connectionLost: string): string {
  if (error instanceof ApiError) {
    if (error.kind === 'business') return errorText(error, language);
    if (error.kind === 'http' && error.status === 413) return ERRORS.FILE_SIZE_EXCEEDED.msg[language];
    if (error.kind === 'http' && error.status) return uploadFailedText(language, `HTTP ${error.status}`);
  }
  return uploadFailedText(language, connectionLost);
}
