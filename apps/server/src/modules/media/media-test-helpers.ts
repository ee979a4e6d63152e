import { createRequire } from 'node:module';
import path from 'node:path';
import { MEDIA_UPLOAD_PATH } from '@athena/contract';
import type { TestApp } from '../../testing/test-app.ts';

/** tus's Upload-Metadata: comma-separated `key base64(value)` pairs. */
export const tusMetadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/**
 * Uploads a whole small file in the creation request itself (tus creation-with-upload) through
 * app.inject and returns the new item's id.
 */
export async function uploadSmall(
  t: TestApp,
  headers: Record<string, string>,
  libraryId: string,
  name: string,
  bytes: Buffer,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: MEDIA_UPLOAD_PATH,
    headers: {
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': tusMetadata({ library_id: libraryId, filename: name }),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
  const id = res.headers['media-item-id'];
  if (res.statusCode !== 201 || typeof id !== 'string') throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return id;
}

/** Bytes that sniff as nothing in particular (and are not text: they hold NUL bytes). */
export function noise(size: number, seed = 1) {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x & 0xff;
  }
  bytes.write('NOISE', 0);
  return bytes;
}

/**
 * A native ffmpeg that makes test media (it encodes H.264 and AAC from its built-in sources):
 * the @ffmpeg-installer package, a development dependency. The product reads media with the
 * WebAssembly build instead (media-tools.ts).
 */
export function fixtureFfmpeg(): string {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve(`@ffmpeg-installer/${process.platform}-${process.arch}/package.json`));
  return path.join(dir, 'ffmpeg');
}
