import { ERRORS, type ErrorKey, type Language } from '@athena/contract';
import { ApiError, errorText } from './api-client.ts';

/** The image types a person may upload (an avatar, a media cover). */
export type ImageType = 'image/jpeg' | 'image/png';

/** What one upload accepts: its size limit and the server's messages for a refusal. */
export interface ImageRules {
  maxBytes: number;
  invalid: ErrorKey;
  tooLarge: ErrorKey;
}

export type ImageCheck = { ok: true; type: ImageType } | { ok: false; message: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the first bytes say the file is (the name and the browser's guess can lie). */
export function sniffImageType(head: Uint8Array): ImageType | null {
  if (PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

/** The first bytes of a file, for sniffing. */
export async function readHead(file: Blob, length = 16): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, length).arrayBuffer());
}

/**
 * The checks before an image is sent, with the server's own messages: JPEG or PNG by content, not
 * empty, at most `rules.maxBytes`.
 */
export function checkImage(
  file: { size: number },
  head: Uint8Array,
  rules: ImageRules,
  language: Language,
): ImageCheck {
  const type = sniffImageType(head);
  if (!type || file.size === 0) return { ok: false, message: ERRORS[rules.invalid].msg[language] };
  if (file.size > rules.maxBytes) return { ok: false, message: ERRORS[rules.tooLarge].msg[language] };
  return { ok: true, type };
}

/** `checkImage` on a chosen file, reading its first bytes. */
export async function checkImageFile(file: Blob, rules: ImageRules, language: Language): Promise<ImageCheck> {
  return checkImage(file, await readHead(file), rules, language);
}

/**
 * What to tell the person when the upload fails. A body-size refusal that arrives without our
 * envelope (a proxy's bare 413, or the server's generic "request too large") still means "too big".
 */
export function imageUploadErrorText(error: unknown, rules: ImageRules, language: Language): string {
  if (error instanceof ApiError && (error.status === 413 || error.code === ERRORS.PAYLOAD_TOO_LARGE.code)) {
    return ERRORS[rules.tooLarge].msg[language];
  }
  return errorText(error, language);
}
