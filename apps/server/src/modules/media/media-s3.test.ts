import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { MEDIA_UPLOAD_PATH, mediaRoutes } from '@athena/contract';
import { eq, sql } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3 } from '../../testing/fake-s3.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { makePng } from '../custom-business/test-files.ts';
import { mediaItems } from './media.schema.ts';
import { noise, tusMetadata } from './media-test-helpers.ts';

const MIB = 1024 * 1024;
const ACCESS = 'media-access';
const SECRET = 'media/secret+key';
const UPLOADS = 'tenant/media/uploads/';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('media on S3 (STORAGE_URL)', () => {
  let fake: Awaited<ReturnType<typeof startFakeS3>>;
  let t: TestApp;
  let base: string;
  let team: TeamFixture;
  let library: string;
  let env: Record<string, string>;

  async function start(same?: TestApp) {
    const app = await createTestApp({
      env,
      sameDatabaseAs: same ? { database: same.database, masterKey: same.masterKey } : undefined,
    });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { t: app, base: `http://127.0.0.1:${port}` };
  }

  beforeAll(async () => {
    fake = await startFakeS3({ accessKeyId: ACCESS, secretAccessKey: SECRET, bucket: 'athena' });
    const host = new URL(fake.url).host;
    env = {
      STORAGE_URL: `http://${ACCESS}:${encodeURIComponent(SECRET)}@${host}/athena/tenant?region=cn-north-1`,
      MEDIA_QUOTA_BYTES: String(200 * MIB),
    };
    ({ t, base } = await start());
    team = await buildTeam(t, { phonePrefix: '136200000' });
    library = (await t.call(mediaRoutes.libraryCreate, { name: 'Bucket' }, team.as(team.member))).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const tusHeaders = (headers: Record<string, string>) => ({ ...headers, 'tus-resumable': '1.0.0' });
  const create = (at: string, headers: Record<string, string>, size: number, name = 'clip.bin') =>
    fetch(`${at}${MEDIA_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...tusHeaders(headers),
        'upload-length': String(size),
        'upload-metadata': tusMetadata({ library_id: library, filename: name }),
      },
    });
  const patch = (at: string, url: string, headers: Record<string, string>, offset: number, bytes: Buffer, extra = {}) =>
    fetch(`${at}${url}`, {
      method: 'PATCH',
      headers: {
        ...tusHeaders(headers),
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        ...extra,
      },
      body: bytes,
    });
  const head = (at: string, url: string, headers: Record<string, string>) =>
    fetch(`${at}${url}`, { method: 'HEAD', headers: tusHeaders(headers) });
  const uploadIdOf = (location: string) => location.split('/').pop() ?? '';
  const signedUrl = async (app: TestApp, id: string) =>
    (await app.call(mediaRoutes.itemUrl, { id }, team.as(team.member))).body.data.url;

  let uploaded: { id: string; key: string; bytes: Buffer };

  it('sends 6 MiB chunks to the bucket as parts and serves the item by a redirect to a presigned GET', async () => {
    const bytes = Buffer.concat([makePng(), noise(12 * MIB)]);
    const seen: number[] = [];
    const done = await new Promise<{ id: string; url: string }>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(bytes, {
        endpoint: `${base}${MEDIA_UPLOAD_PATH}`,
        chunkSize: 6 * MIB,
        headers: team.as(team.member),
        metadata: { library_id: library, filename: 'Été "clip"; 1.png' },
        retryDelays: [],
        onError: reject,
        onChunkComplete: () => {
          // The parts are in the bucket before the upload is done: nothing waits on local disk.
          const inFlight = [...fake.multipart.values()].find((entry) => entry.key.startsWith(UPLOADS));
          if (inFlight) seen.push(...[...inFlight.parts.values()].map((part) => part.bytes.length));
        },
        onSuccess: (payload) =>
          resolve({ id: payload.lastResponse.getHeader('Media-Item-Id') ?? '', url: upload.url ?? '' }),
      });
      upload.start();
    });
    expect(seen).toContain(6 * MIB);
    const got = (await t.call(mediaRoutes.itemGet, { id: done.id }, team.as(team.member))).body.data;
    expect(got).toMatchObject({ kind: 'image', mime_type: 'image/png', status: 'ready', size: bytes.length });

    // The finished multipart upload is the item's object; tus's leftovers go, the object stays.
    const key = `${UPLOADS}${uploadIdOf(done.url)}`;
    expect(fake.objects.get(key)?.bytes.length).toBe(bytes.length);
    await expect.poll(() => fake.objects.has(`${key}.info`)).toBe(false);
    expect([...fake.multipart.values()].some((entry) => entry.key === key)).toBe(false);
    uploaded = { id: done.id, key, bytes };

    const signed = await signedUrl(t, done.id);
    const redirect = await fetch(`${base}${signed}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(Number(/max-age=(\d+)/.exec(redirect.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(300);
    const location = redirect.headers.get('location') ?? '';
    expect(location.startsWith(`${fake.url}/athena/${key}?`)).toBe(true);

    const whole = await fetch(location);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('content-disposition')).toBe(
      `inline; filename="_t_ _clip__ 1.png"; filename*=UTF-8''%C3%89t%C3%A9%20%22clip%22%3B%201.png`,
    );
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(bytes));
    const part = await fetch(location, { headers: { range: 'bytes=7000000-7000099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 7000000-7000099/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(7_000_000, 7_000_100))).toBe(true);

    // The bucket checks the signature: an altered override is refused.
    const altered = location.replace('response-content-type=image%2Fpng', 'response-content-type=text%2Fhtml');
    expect(altered).not.toBe(location);
    expect((await fetch(altered)).status).toBe(403);
    // The background hash read the object back from the bucket.
    await t.app.modules.media.tus.settle();
    const [row] = await t.database.db
      .select({ sha256: mediaItems.sha256 })
      .from(mediaItems)
      .where(eq(mediaItems.id, done.id));
    expect(row?.sha256).toBe(sha(bytes));
  }, 30_000);

  it('gives the offset by HEAD, refuses a wrong offset and checksum, keeps a short tail, resumes after a restart', async () => {
    const me = team.as(team.member);
    const options = await fetch(`${base}${MEDIA_UPLOAD_PATH}`, { method: 'OPTIONS', headers: tusHeaders({}) });
    expect(options.headers.get('tus-extension')).toContain('checksum');
    expect(options.headers.get('tus-checksum-algorithm')).toBe('sha1,sha256,md5');

    const bytes = noise(12 * MIB, 5);
    const created = await create(base, me, bytes.length);
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location') ?? '', base).pathname;
    expect((await patch(base, url, me, 0, bytes.subarray(0, 6 * MIB))).status).toBe(204);
    expect((await head(base, url, me)).headers.get('upload-offset')).toBe(String(6 * MIB));
    expect((await patch(base, url, me, 10, bytes.subarray(10, 20))).status).toBe(409);
    // Under 5 MiB cannot be a part yet: kept as tus's `.part` object until the next chunk.
    expect((await patch(base, url, me, 6 * MIB, bytes.subarray(6 * MIB, 7 * MIB))).status).toBe(204);
    expect(fake.objects.has(`${UPLOADS}${uploadIdOf(url)}.part`)).toBe(true);
    expect((await head(base, url, me)).headers.get('upload-offset')).toBe(String(7 * MIB));
    // A chunk whose checksum does not match never reaches the bucket.
    const rest = bytes.subarray(7 * MIB);
    const wrong = createHash('sha1').update('not these bytes').digest('base64');
    const mismatch = await patch(base, url, me, 7 * MIB, rest, { 'upload-checksum': `sha1 ${wrong}` });
    expect(mismatch.status).toBe(460);
    expect((await head(base, url, me)).headers.get('upload-offset')).toBe(String(7 * MIB));
    const unknown = await patch(base, url, me, 7 * MIB, rest, { 'upload-checksum': 'crc32 AAAA' });
    expect(unknown.status).toBe(400);

    // Another process (or this one restarted) knows the upload from the bucket alone.
    const second = await start(t);
    try {
      expect((await head(second.base, url, me)).headers.get('upload-offset')).toBe(String(7 * MIB));
      const right = createHash('sha256').update(rest).digest('base64');
      const last = await patch(second.base, url, me, 7 * MIB, rest, { 'upload-checksum': `sha256 ${right}` });
      expect(last.status).toBe(204);
      const id = last.headers.get('media-item-id') ?? '';
      const redirect = await fetch(`${second.base}${await signedUrl(second.t, id)}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const back = await fetch(redirect.headers.get('location') ?? '');
      expect(back.headers.get('content-disposition')).toMatch(/^attachment; filename="clip\.bin"/);
      expect(sha(Buffer.from(await back.arrayBuffer()))).toBe(sha(bytes));
      await second.t.app.modules.media.tus.settle();
    } finally {
      await second.t.close();
    }
  }, 30_000);

  it('expires abandoned uploads: the multipart upload is aborted and tus leftovers removed', async () => {
    const me = team.as(team.member);
    const created = await create(base, me, 8 * MIB);
    const url = new URL(created.headers.get('location') ?? '', base).pathname;
    const key = `${UPLOADS}${uploadIdOf(url)}`;
    expect((await patch(base, url, me, 0, noise(6 * MIB, 9))).status).toBe(204);
    const pending = () => [...fake.multipart.values()].filter((entry) => entry.key === key);
    expect(pending()).toHaveLength(1);
    await t.database.db.execute(
      sql`update media_uploads set expires_at = now() - interval '1 hour' where id = ${uploadIdOf(url)}`,
    );
    expect(await t.app.modules.media.tus.removeExpired()).toBe(1);
    expect(pending()).toHaveLength(0);
    expect(fake.objects.has(`${key}.info`)).toBe(false);
    expect((await head(base, url, me)).status).toBe(404);

    // A multipart upload with no row left (a crash) expires by tus's own clock, within our prefix only.
    const orphan = await create(base, me, 6 * MIB);
    const orphanKey = `${UPLOADS}${uploadIdOf(orphan.headers.get('location') ?? '')}`;
    await t.database.db.execute(sql`delete from media_uploads where id = ${uploadIdOf(orphanKey)}`);
    const entry = [...fake.multipart.values()].find((upload) => upload.key === orphanKey);
    if (!entry) throw new Error('no multipart upload for the orphan');
    entry.initiated = new Date(Date.now() - 25 * 3_600_000);
    await t.app.modules.media.tus.removeExpired();
    expect([...fake.multipart.values()].some((upload) => upload.key === orphanKey)).toBe(false);
    expect(fake.objects.has(`${orphanKey}.info`)).toBe(false);
  }, 30_000);

  it('stores, stats, reads ranges of and lends as a local file what processing makes', async () => {
    const { files } = t.app.modules.media;
    const key = files.newKey(team.teamId);
    const bytes = noise(70_000, 11);
    await files.put(key, bytes);
    expect(fake.objects.get(`tenant/media/files/${key}`)?.bytes.equals(bytes)).toBe(true);
    expect(await files.stat(key)).toEqual({ size: bytes.length });
    const chunks: Buffer[] = [];
    for await (const chunk of files.read(key, { start: 10, end: 99_999 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(10))).toBe(true);
    let local = '';
    const copied = await files.withLocalFile(key, async (file) => {
      local = file;
      return fs.readFile(file);
    });
    expect(copied.equals(bytes)).toBe(true);
    await expect(fs.stat(local)).rejects.toThrow(/ENOENT/);
    await files.remove(key);
    expect(await files.stat(key)).toBeNull();
    const gone = files.read(key);
    await expect(gone.toArray()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('trash keeps the object, purge removes it from the bucket', async () => {
    const me = team.as(team.member);
    const signed = await signedUrl(t, uploaded.id);
    await t.call(mediaRoutes.itemDelete, { id: uploaded.id }, me);
    expect((await fetch(`${base}${signed}`, { redirect: 'manual' })).status).toBe(404);
    expect(fake.objects.has(uploaded.key)).toBe(true);
    const purged = await t.call(mediaRoutes.itemPurge, { id: uploaded.id }, me);
    expect(purged.body.code).toBe(0);
    expect(fake.objects.has(uploaded.key)).toBe(false);
  });
});
