import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-s3';
import type { InitializeMiddleware } from '@smithy/types';
import type { S3Store } from '@tus/s3-store';
import { AwsClient } from 'aws4fetch';
import type { fileTypeFromStream } from 'file-type';
import type { S3Location } from '../../platform/storage-s3.ts';
import { describeType, type MediaFiles, TEXT_SNIFF_BYTES } from './media-files.ts';
import { CHECKSUM_ALGORITHMS } from './tus-upload.ts';

/** Parts of at least 5 MiB are S3's rule; 8 MiB keeps a 5 GB file at 640 parts. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** How long a presigned GET is good for, counted from its signing time. */
const PRESIGN_SECONDS = 20 * 60;
/** Signing times are rounded down to this, so one file's URL stays the same and caches work. */
const PRESIGN_WINDOW_MS = 5 * 60_000;
/** file-type reads what it needs from the head; this bounds it (a zip's entries, an MP4's boxes). */
const SNIFF_BYTES = 4 * 1024 * 1024;

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const UPLOAD_KEY = /^uploads\/[0-9a-f]{32}$/;
const FILE_KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/**
 * Media bytes in an S3-compatible bucket (`STORAGE_URL`), everything under `<prefix>media/`:
 *
 * - tus uploads are multipart uploads of `media/uploads/<upload id>`, with tus's `.info` object
 *   (and `.part`, a tail under 5 MiB kept between two PATCHes) beside it;
 * - a finished upload's object stays where it is: the item's storage key is `uploads/<upload id>`
 *   (5 GB are never copied), and removeUpload only deletes tus's leftovers;
 * - files made here (thumbnails) are `media/files/<space>/<random>`, keys from newKey.
 */
export function createS3MediaFiles(
  location: S3Location,
  opts: { fetch?: typeof fetch; now?: () => Date } = {},
): MediaFiles {
  const fetchImpl = opts.fetch ?? fetch;
  const now = opts.now ?? (() => new Date());
  const root = `${location.prefix}media/`;
  const uploadsRoot = `${root}uploads/`;
  const client = new AwsClient({
    accessKeyId: location.accessKeyId,
    secretAccessKey: location.secretAccessKey,
    service: 's3',
    region: location.region,
  });
  const { endpoint } = location;
  const urlOf = (objectKey: string, query = '') => {
    // Keys are made of [0-9a-z/._-] here (and the prefix is the operator's): nothing to escape.
    const base = location.virtualHosted
      ? `${endpoint.protocol}//${location.bucket}.${endpoint.host}/${objectKey}`
      : `${endpoint.protocol}//${endpoint.host}/${location.bucket}/${objectKey}`;
    return query ? `${base}?${query}` : base;
  };
  const objectOf = (key: string) => {
    if (FILE_KEY.test(key)) return `${root}files/${key}`;
    if (UPLOAD_KEY.test(key)) return `${root}${key}`;
    throw new Error(`media: invalid key ${JSON.stringify(key)}`);
  };
  const uploadObjectOf = (id: string) => {
    if (!UPLOAD_ID.test(id)) throw new Error(`media: invalid upload id ${JSON.stringify(id)}`);
    return `${uploadsRoot}${id}`;
  };
  const send = async (objectKey: string, init: RequestInit, query = '') =>
    fetchImpl(await client.sign(urlOf(objectKey, query), init));
  const failure = async (action: string, objectKey: string, response: Response) => {
    const body = (await response.text()).slice(0, 300);
    return new Error(`media: S3 ${action} ${objectKey} answered ${response.status}: ${body}`);
  };
  const removeObject = async (objectKey: string, query = '') => {
    const response = await send(objectKey, { method: 'DELETE' }, query);
    if (!response.ok && response.status !== 404) throw await failure('DELETE', objectKey, response);
    await response.body?.cancel();
  };

  /** The object's bytes as a web stream; null for a range that starts past the end. */
  async function get(key: string, range?: { start: number; end: number }) {
    const objectKey = objectOf(key);
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const response = await send(objectKey, { method: 'GET', headers });
    if (response.status === 404) {
      await response.body?.cancel();
      throw Object.assign(new Error(`media: ${key} is gone`), { code: 'ENOENT' });
    }
    if (response.status === 416) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok || !response.body) throw await failure('GET', objectKey, response);
    return response.body;
  }
  function read(key: string, range?: { start: number; end: number }) {
    async function* bytes() {
      // Nothing past the end, as a file stream gives.
      const body = await get(key, range);
      if (body) for await (const chunk of body) yield Buffer.from(chunk);
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  const stores: { close(): void }[] = [];
  async function datastore(expiryMs: number, checksumOf: () => string | null) {
    const MediaS3Store = await mediaS3Store();
    const store = new MediaS3Store(uploadsRoot, checksumOf, {
      partSize: S3_PART_BYTES,
      expirationPeriodInMilliseconds: expiryMs,
      // Object tags are for bucket lifecycle rules; not every S3-compatible store has them.
      useTags: false,
      s3ClientConfig: {
        bucket: location.bucket,
        endpoint: `${endpoint.protocol}//${endpoint.host}`,
        region: location.region,
        forcePathStyle: !location.virtualHosted,
        credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
        // The SDK's default CRC32 trailers (aws-chunked bodies) are refused by several S3-compatible
        // stores; checksums only where an operation requires them (DeleteObjects).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
    stores.push(store);
    return store;
  }

  return {
    uploads: { kind: 's3', datastore },
    async close() {
      for (const store of stores) store.close();
    },
    // The completed multipart upload is the item's object: nothing moves.
    async adopt(uploadId) {
      uploadObjectOf(uploadId);
      return `uploads/${uploadId}`;
    },
    async removeUpload(uploadId) {
      const objectKey = uploadObjectOf(uploadId);
      const info = await send(`${objectKey}.info`, { method: 'HEAD' });
      if (!info.ok && info.status !== 404) throw await failure('HEAD', `${objectKey}.info`, info);
      const multipartId = info.headers.get('x-amz-meta-upload-id');
      // An unfinished upload's parts go with it; a finished one answers 404 and keeps its object.
      if (multipartId) await removeObject(objectKey, `uploadId=${encodeURIComponent(multipartId)}`);
      await removeObject(`${objectKey}.part`);
      await removeObject(`${objectKey}.info`);
    },
    remove: (key) => removeObject(objectOf(key)),
    async stat(key) {
      const objectKey = objectOf(key);
      const response = await send(objectKey, { method: 'HEAD' });
      if (response.status === 404) return null;
      if (!response.ok) throw await failure('HEAD', objectKey, response);
      return { size: Number(response.headers.get('content-length')) };
    },
    read,
    newKey: (spaceId) => `${spaceId}/${randomUUID()}`,
    async put(key, bytes) {
      const objectKey = objectOf(key);
      const response = await send(objectKey, {
        method: 'PUT',
        body: new Uint8Array(bytes),
        headers: { 'content-type': 'application/octet-stream' },
      });
      if (!response.ok) throw await failure('PUT', objectKey, response);
      await response.body?.cancel();
    },
    async withLocalFile(key, work) {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'athena-media-s3-'));
      try {
        const file = path.join(dir, 'file');
        await pipeline(read(key), fs.createWriteStream(file, { mode: 0o600 }));
        return await work(file);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
    async sniff(key) {
      const head = await get(key, { start: 0, end: SNIFF_BYTES - 1 });
      if (!head) return describeType(undefined);
      let found: Awaited<ReturnType<typeof fileTypeFromStream>>;
      try {
        found = await (await import('file-type')).fileTypeFromStream(head);
      } finally {
        await head.cancel().catch(() => undefined);
      }
      if (found) return describeType(found);
      // No magic bytes: perhaps text, judged on the first few kilobytes.
      const start = await get(key, { start: 0, end: TEXT_SNIFF_BYTES - 1 });
      return describeType(undefined, start ? Buffer.from(await new Response(start).arrayBuffer()) : undefined);
    },
    async presignedUrl(key, response) {
      const signedAt = new Date(Math.floor(now().getTime() / PRESIGN_WINDOW_MS) * PRESIGN_WINDOW_MS);
      const url = new URL(urlOf(objectOf(key)));
      url.searchParams.set('response-content-type', response.contentType);
      url.searchParams.set('response-content-disposition', response.disposition);
      url.searchParams.set('X-Amz-Expires', String(PRESIGN_SECONDS));
      const signed = await client.sign(url.toString(), {
        method: 'GET',
        aws: { signQuery: true, datetime: signedAt.toISOString().replace(/[:-]|\.\d{3}/g, '') },
      });
      // Written out in RFC 3986 form (%20, not +), as every S3 implementation reads it alike.
      const target = new URL(signed.url);
      target.search = [...target.searchParams].map(([name, value]) => `${strict(name)}=${strict(value)}`).join('&');
      // A cached redirect always leaves the URL at least ten minutes of life.
      const left = Math.floor((signedAt.getTime() + PRESIGN_SECONDS * 1000 - now().getTime()) / 1000);
      return { url: target.toString(), cacheSeconds: Math.max(0, Math.min(300, left - 600)) };
    },
  };
}

const strict = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

let loadingStore: ReturnType<typeof defineMediaS3Store> | undefined;

/**
 * tus's S3 store pulls in the AWS SDK (~0.2 s and several MB at start-up), so it is loaded with the
 * first upload of a server that keeps media on S3, never by one that keeps it on disk.
 */
const mediaS3Store = () => (loadingStore ??= defineMediaS3Store());

/**
 * tus's own S3 store, under a prefix, with the checksum extension.
 *
 * - The store names objects by the bare upload id, so a middleware adds the prefix to every key it
 *   sends and takes it off the uploads it lists (tus's expiry then only ever sees, and aborts,
 *   uploads under the prefix).
 * - A part sent to the bucket cannot be taken back, so a chunk with `Upload-Checksum` is first
 *   spooled to a temporary file while it is hashed, and goes to the bucket only when it matches
 *   (460 otherwise, and nothing of it is kept, as on disk).
 */
async function defineMediaS3Store() {
  const { S3Store: TusS3Store } = await import('@tus/s3-store');
  class MediaS3Store extends TusS3Store {
    constructor(
      prefix: string,
      private readonly checksumOf: () => string | null,
      options: ConstructorParameters<typeof S3Store>[0],
    ) {
      super(options);
      this.extensions = [...this.extensions, 'checksum'];
      this.client.middlewareStack.add(prefixKeys(prefix), { step: 'initialize', name: 'athenaMediaKeyPrefix' });
    }
    close() {
      this.client.destroy();
    }
    override async write(readable: Readable, id: string, offset: number): Promise<number> {
      const checksum = this.checksumOf();
      if (!checksum) return super.write(readable, id, offset);
      const [algorithm, expected] = checksum.trim().split(/\s+/);
      if (!algorithm || !expected || !CHECKSUM_ALGORITHMS.includes(algorithm)) {
        throw { status_code: 400, body: 'Unsupported checksum algorithm\n' };
      }
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'athena-media-chunk-'));
      try {
        const file = path.join(dir, 'chunk');
        const hash = createHash(algorithm);
        const hashing = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        });
        try {
          await pipeline(readable, hashing, fs.createWriteStream(file, { mode: 0o600 }));
        } catch {
          throw { status_code: 500, body: 'Chunk interrupted\n' };
        }
        if (hash.digest('base64') !== expected) throw { status_code: 460, body: 'Checksum Mismatch\n' };
        return await super.write(fs.createReadStream(file), id, offset);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    }
  }
  return MediaS3Store;
}

function prefixKeys(prefix: string): InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> {
  const add = (key: unknown) => (typeof key === 'string' ? `${prefix}${key}` : key);
  const strip = (key: unknown) => (typeof key === 'string' && key.startsWith(prefix) ? key.slice(prefix.length) : key);
  return (next, context) => async (args) => {
    const input = { ...(args.input as Record<string, unknown>) };
    if ('Key' in input) input.Key = add(input.Key);
    const remove = input.Delete as { Objects?: { Key?: string }[] } | undefined;
    if (remove?.Objects) {
      input.Delete = { ...remove, Objects: remove.Objects.map((object) => ({ ...object, Key: add(object.Key) })) };
    }
    const listing = context.commandName === 'ListMultipartUploadsCommand';
    if (listing) {
      input.Prefix = prefix;
      if (input.KeyMarker) input.KeyMarker = add(input.KeyMarker);
    }
    const result = await next({ ...args, input: input as ServiceInputTypes });
    if (listing) {
      const output = result.output as { Uploads?: { Key?: string }[]; NextKeyMarker?: string };
      output.Uploads = output.Uploads?.map((upload) => ({ ...upload, Key: strip(upload.Key) as string }));
      output.NextKeyMarker = strip(output.NextKeyMarker) as string | undefined;
    }
    return result;
  };
}
