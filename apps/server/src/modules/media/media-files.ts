import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MEDIA_FILE_NAME_MAX, type MediaKind } from '@athena/contract';
import { fileTypeFromFile } from 'file-type';

/**
 * Where media bytes live on local disk: tus parts under `uploads/` while they arrive, finished
 * files under `files/<space>/<random>` (a rename, never a copy). A stored key is made here and
 * never derives from the uploader's file name. S3 is a later step (docs/media.md).
 */
export function createMediaFiles(dataDir: string) {
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
    uploadDir,
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
    /** The content's type from its magic bytes (file-type reads only the head of the file). */
    sniff: async (key: string) => describeType(await fileTypeFromFile(fileOf(key))),
  };
}

export type MediaFiles = ReturnType<typeof createMediaFiles>;

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

export function describeType(found: { mime: string } | undefined): { mime: string; kind: MediaKind } {
  if (!found) return { mime: 'application/octet-stream', kind: 'other' };
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
