import { ERRORS, type Language } from '@athena/contract';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { uploadFailedText } from './file-checks.ts';

/** A random UUID v4. crypto.randomUUID exists only on HTTPS or localhost; a LAN install may be plain HTTP. */
export function newBatchId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
