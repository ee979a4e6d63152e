import { AVATAR_MAX_BYTES, type AVATAR_TYPES, ERRORS, type Language } from '@athena/contract';
import { ApiError, errorText } from '../../lib/api-client.ts';

export type AvatarType = (typeof AVATAR_TYPES)[number];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the first bytes say the file is (the name and the browser's guess can lie). */
export function sniffImageType(head: Uint8Array): AvatarType | null {
  if (PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

export type AvatarCheck = { ok: true; type: AvatarType } | { ok: false; message: string };

/**
 * The client-side checks before an upload, with the server's own messages: JPG or PNG by content,
 * at most 2 MB.
 */
export function checkAvatar(file: { size: number }, head: Uint8Array, language: Language): AvatarCheck {
  const type = sniffImageType(head);
  if (!type) return { ok: false, message: ERRORS.AVATAR_INVALID.msg[language] };
  if (file.size > AVATAR_MAX_BYTES) return { ok: false, message: ERRORS.AVATAR_TOO_LARGE.msg[language] };
  if (file.size === 0) return { ok: false, message: ERRORS.AVATAR_INVALID.msg[language] };
  return { ok: true, type };
}

/**
 * What to tell the person when the upload fails. A body-size refusal that arrives without our
 * envelope (a proxy's bare 413, or the server's generic "request too large") still means "too big".
 */
export function avatarUploadErrorText(error: unknown, language: Language): string {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.code === ERRORS.PAYLOAD_TOO_LARGE.code) {
      return ERRORS.AVATAR_TOO_LARGE.msg[language];
    }
  }
  return errorText(error, language);
}

/** The first bytes of a file, for sniffing. */
export async function readHead(file: Blob, length = 16): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, length).arrayBuffer());
}
