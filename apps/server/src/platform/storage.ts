import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ERRORS, formatMessage } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { languageOf } from './http/error-handler.ts';

/**
 * Where uploaded files live: local disk under `${DATA_DIR}/files` by default (memory in tests).
 * An S3-compatible implementation can replace it behind the same two calls.
 */
export interface ObjectStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Removes the object; a missing one is not an error. */
  remove(key: string): Promise<void>;
}

export const FILES_PATH = '/files/';

/**
 * The content type travels in the key's extension, so a file on disk needs no sidecar and a
 * served file's type can never be chosen by whoever uploaded it. Add a type here before storing it.
 */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  // Custom AI business attachments: their keys hold a secret never sent to clients, so only the
  // module's authorised download route can name them.
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  // Knowledge base files (their keys hold a random secret too; the module reads them back itself).
  txt: 'text/plain',
  csv: 'text/csv',
  // Chat-history media downloaded from WeCom (random keys, served only through signed URLs).
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  amr: 'audio/amr',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  bin: 'application/octet-stream',
};
const EXTENSIONS = Object.fromEntries(Object.entries(TYPES).map(([ext, type]) => [type, ext]));

export function extensionFor(contentType: string): string {
  const ext = EXTENSIONS[contentType];
  if (!ext) throw new Error(`storage: no extension registered for ${contentType}`);
  return ext;
}

// Segments of letters, digits, '-', '_' and inner dots; none empty or starting with a dot, so
// '..', hidden files and absolute paths cannot be expressed at all.
const KEY_PATTERN = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}\/){0,7}[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** The content type a valid key stands for, or null when the key is not one we could have made. */
export function contentTypeOfKey(key: string): string | null {
  if (!KEY_PATTERN.test(key)) return null;
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return key.includes('.') ? (TYPES[ext] ?? null) : null;
}

function checkedPut(key: string, contentType: string) {
  const expected = contentTypeOfKey(key);
  if (!expected) throw new Error(`storage: invalid key ${JSON.stringify(key)}`);
  if (expected !== contentType) throw new Error(`storage: key ${key} does not match ${contentType}`);
}

export function createMemoryStorage(): ObjectStorage {
  const objects = new Map<string, Buffer>();
  return {
    async put(key, bytes, contentType) {
      checkedPut(key, contentType);
      objects.set(key, Buffer.from(bytes));
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      const bytes = contentType ? objects.get(key) : undefined;
      return bytes && contentType ? { bytes: Buffer.from(bytes), contentType } : null;
    },
    async remove(key) {
      objects.delete(key);
    },
  };
}

export function createDiskStorage(root: string): ObjectStorage {
  const base = path.resolve(root);
  // The pattern already rules out traversal; resolving and re-checking is the second lock.
  const fileOf = (key: string) => {
    const file = path.resolve(base, key);
    return file.startsWith(base + path.sep) ? file : null;
  };
  return {
    async put(key, bytes, contentType) {
      checkedPut(key, contentType);
      const file = fileOf(key);
      if (!file) throw new Error(`storage: invalid key ${JSON.stringify(key)}`);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file and a crash leaves no torn object.
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temp, bytes, { mode: 0o640 });
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      const file = contentType ? fileOf(key) : null;
      if (!contentType || !file) return null;
      try {
        return { bytes: await fs.readFile(file), contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      const file = contentTypeOfKey(key) ? fileOf(key) : null;
      if (file) await fs.rm(file, { force: true });
    },
  };
}

/** Disk under the data directory, or memory when the database is in memory too (tests). */
export function createObjectStorage(dataDir: string): ObjectStorage {
  return dataDir.startsWith('memory://') ? createMemoryStorage() : createDiskStorage(path.join(dataDir, 'files'));
}

export const fileUrl = (key: string) => `${FILES_PATH}${key}`;

/**
 * What the public route serves: images (avatars), which an <img> must load without a session.
 * Documents (custom business attachments, knowledge files) are private and read back only through
 * their modules' authorised routes, so a leaked or guessed key is not enough to fetch one here.
 */
const PUBLIC_TYPES = new Set(['image/png', 'image/jpeg']);

/**
 * GET /files/<key>. Keys are content-hashed, so a URL's bytes never change: cache for a year.
 * Images are public to whoever holds the URL (an <img> cannot send the session header); any other
 * type answers 404 as if it did not exist.
 */
export function registerFileRoutes(app: FastifyInstance, storage: ObjectStorage) {
  app.get(`${FILES_PATH}*`, { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const type = contentTypeOfKey(key);
    const object = type && PUBLIC_TYPES.has(type) ? await storage.get(key) : null;
    if (!object) {
      return reply.status(404).send({
        code: ERRORS.NOT_FOUND.code,
        msg: formatMessage('NOT_FOUND', languageOf(request)),
        request_id: request.id,
      });
    }
    return reply
      .header('content-type', object.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(object.bytes);
  });
}
