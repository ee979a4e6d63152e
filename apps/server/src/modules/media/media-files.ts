import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MEDIA_FILE_NAME_MAX, type MediaKind } from '@athena/contract';
import type { DataStore } from '@tus/server';

/**
 * Where media bytes live: local disk (`createMediaFiles`, below) or an S3-compatible bucket
 * (`createS3MediaFiles`, media-files-s3.ts). A stored key is made here and never derives from the
 * uploader's file name.
 */
export interface MediaFiles {
  /**
   * Where tus keeps uploads in flight: a directory for tus-upload.ts's checksummed file store, or
   * an S3 store that sends the parts to the bucket as they arrive. `checksumOf` gives the current
   * request's `Upload-Checksum` header.
   */
  readonly uploads:
    | { kind: 'disk'; directory: string }
    | { kind: 's3'; datastore: (expiryMs: number, checksumOf: () => string | null) => Promise<DataStore> };
  close(): Promise<void>;
  /** Makes a finished upload the stored file of an item and returns its storage key. */
  adopt(uploadId: string, spaceId: string): Promise<string>;
  /** Removes what tus keeps of an upload (parts, its info); never the file adopt made of it. */
  removeUpload(uploadId: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** The stored file's size, or null when it is gone. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The stored bytes, `range` inclusive; a missing file fails the stream with code ENOENT. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A new random key in the space, for a file made here (a thumbnail, a cover). */
  newKey(spaceId: string): string;
  /** Stores bytes made here (thumbnails and covers: small) under a key from newKey. */
  put(key: string, bytes: Buffer): Promise<void>;
  /**
   * Runs `work` with a path on local disk that holds the stored bytes (ffprobe, ffmpeg and sharp
   * read files). The file must not be changed.
   */
  withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T>;
  /** The content's type from its magic bytes (only the head of the file is read). */
  sniff(key: string): Promise<{ mime: string; kind: MediaKind }>;
  /**
   * Where the browser fetches the bytes itself (a presigned GET of the bucket), when the store
   * serves them; absent on local disk, where the app streams them.
   */
  presignedUrl?(
    key: string,
    response: { contentType: string; disposition: string },
  ): Promise<{ url: string; cacheSeconds: number }>;
}

/**
 * Media bytes on local disk: tus parts under `uploads/` while they arrive, finished files under
 * `files/<space>/<random>` (a link, never a copy).
 */
export function createMediaFiles(dataDir: string): MediaFiles {
  // Tests run with an in-memory data directory; media needs real files, so a private temp dir
  // that goes with the app (close).
  const temporary = dataDir.startsWith('memory://');
  const root = temporary
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'athena-media-'))
    : path.join(path.resolve(dataDir), 'media');
  const uploadDir = path.join(root, 'uploads');
  const filesDir = path.join(root, 'files');
  fs.mkdirSync(uploadDir, { recursive: true, mode: 0o750 });
  fs.mkdirSync(filesDir, { recursive: true, mode: 0o750 });
  const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`media: invalid key ${JSON.stringify(key)}`);
    return path.join(filesDir, key);
  };
  const uploadOf = (id: string) => {
    if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`media: invalid upload id ${JSON.stringify(id)}`);
    return path.join(uploadDir, id);
  };

  return {
    uploads: { kind: 'disk', directory: uploadDir },
    /** Removes the temporary directory of an in-memory app; real data stays. */
    async close() {
      if (temporary) await fsp.rm(root, { recursive: true, force: true });
    },
    /**
     * Links a finished upload into place under a new random key (same disk: no copy). The part
     * itself is removed after tus has answered (removeUpload), since tus reads it until then.
     */
    async adopt(uploadId: string, spaceId: string) {
      const key = `${spaceId}/${randomUUID()}`;
      const target = fileOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o750 });
      await fsp.link(uploadOf(uploadId), target);
      return key;
    },
    async removeUpload(uploadId: string) {
      await fsp.rm(uploadOf(uploadId), { force: true });
      await fsp.rm(`${uploadOf(uploadId)}.json`, { force: true });
    },
    async remove(key: string) {
      await fsp.rm(fileOf(key), { force: true });
    },
    /** A stat of the stored file, or null when it is gone. */
    async stat(key: string) {
      try {
        return await fsp.stat(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    read: (key: string, range?: { start: number; end: number }) => fs.createReadStream(fileOf(key), range),
    /** A new random key in the space, for a file made here (a thumbnail, a cover). */
    newKey: (spaceId: string) => `${spaceId}/${randomUUID()}`,
    /** Stores bytes made here (thumbnails and covers: small) under a key from newKey. */
    async put(key: string, bytes: Buffer) {
      const target = fileOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o750 });
      await fsp.writeFile(target, bytes, { mode: 0o640 });
    },
    /**
     * Runs `work` with a path on local disk that holds the stored bytes (ffprobe, ffmpeg and sharp
     * read files). On local disk that is the file itself; it must not be changed.
     */
    withLocalFile: (key, work) => work(fileOf(key)),
    /**
     * The content's type from its magic bytes (file-type reads only the head of the file; it is
     * loaded with the first file to sniff, not at start-up).
     */
    sniff: async (key: string) => {
      const { fileTypeFromFile } = await import('file-type');
      return describeType(await fileTypeFromFile(fileOf(key)), await headOf(fileOf(key)));
    },
  };
}

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/msword',
  'application/x-cfb',
  'application/epub+zip',
  'application/rtf',
]);

/** The first bytes of a file, for the text check when no magic bytes matched. */
async function headOf(file: string) {
  const handle = await fsp.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(TEXT_SNIFF_BYTES), 0, TEXT_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export const TEXT_SNIFF_BYTES = 8192;

/**
 * Whether a file's first bytes read as text: a UTF-16 byte order mark, or no NUL byte and almost
 * no control characters. Text has no magic bytes; UTF-8 and the GBK/GB18030 files Chinese
 * editors still write both pass, binaries do not.
 */
export function looksLikeText(head: Buffer) {
  if (head.length === 0) return false;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) control += 1;
  }
  return control <= head.length / 100;
}

/** A sniffed type and the kind it is shown as; a text file (no magic bytes) is a document. */
export function describeType(found: { mime: string } | undefined, head?: Buffer): { mime: string; kind: MediaKind } {
  if (!found) {
    return head && looksLikeText(head)
      ? { mime: 'text/plain', kind: 'document' }
      : { mime: 'application/octet-stream', kind: 'other' };
  }
  const { mime } = found;
  const top = mime.split('/')[0];
  if (top === 'video' || top === 'audio' || top === 'image') return { mime, kind: top };
  return { mime, kind: DOCUMENT_TYPES.has(mime) ? 'document' : 'other' };
}

/**
 * The name as shown: the last path segment, without control or bidi-override characters, at most
 * 255 characters. It is only ever shown and sent in Content-Disposition, never used as a path.
 */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = last.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const name = clean === '.' || clean === '..' ? '' : clean;
  return (name || 'file').slice(0, MEDIA_FILE_NAME_MAX);
}
