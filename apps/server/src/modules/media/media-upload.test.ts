import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MEDIA_FILE_MAX_BYTES, MEDIA_UPLOAD_PATH, mediaRoutes } from '@athena/contract';
import { sql } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { makePng } from '../custom-business/test-files.ts';
import { noise, tusMetadata } from './media-test-helpers.ts';

const QUOTA = 1_000_000;

async function start(env: Record<string, string>, same?: TestApp) {
  const t = await createTestApp({
    env: { MEDIA_QUOTA_BYTES: String(QUOTA), ...env },
    sameDatabaseAs: same ? { database: same.database, masterKey: same.masterKey } : undefined,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { t, base: `http://127.0.0.1:${port}` };
}

describe('media uploads over tus', () => {
  let dataDir: string;
  let t: TestApp;
  let base: string;
  let team: TeamFixture;
  let library: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'athena-media-test-'));
    ({ t, base } = await start({ DATA_DIR: dataDir }));
    team = await buildTeam(t, { phonePrefix: '136100000' });
    library = (await t.call(mediaRoutes.libraryCreate, { name: 'Clips' }, team.as(team.member))).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const create = (headers: Record<string, string>, size: number, meta: Record<string, string> = {}) =>
    fetch(`${base}${MEDIA_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(size),
        'upload-metadata': tusMetadata({ library_id: library, filename: 'clip.bin', ...meta }),
      },
    });
  const patch = (url: string, headers: Record<string, string>, offset: number, bytes: Buffer, extra = {}) =>
    fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        ...extra,
      },
      body: bytes,
    });
  const head = (url: string, headers: Record<string, string>) =>
    fetch(`${base}${url}`, { method: 'HEAD', headers: { ...headers, 'tus-resumable': '1.0.0' } });
  const item = async (id: string) => (await t.call(mediaRoutes.itemGet, { id }, team.as(team.member))).body.data;

  it('uploads in chunks with tus-js-client, sniffs the content and serves it back', async () => {
    const bytes = Buffer.concat([makePng(), noise(300_000)]);
    const done = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(bytes, {
        endpoint: `${base}${MEDIA_UPLOAD_PATH}`,
        chunkSize: 64 * 1024,
        headers: team.as(team.member),
        metadata: { library_id: library, filename: '../../etc/passwd.mp4' },
        retryDelays: [],
        onError: reject,
        onSuccess: (payload) => resolve(payload.lastResponse.getHeader('Media-Item-Id') ?? ''),
      });
      upload.start();
    });
    const got = await item(done);
    // A PNG renamed to .mp4 is an image; the traversal name is only a shown name.
    expect(got).toMatchObject({ kind: 'image', mime_type: 'image/png', status: 'ready', name: 'passwd.mp4' });
    expect(got.status_reason).toMatch(/image\/png/);
    expect(got.size).toBe(bytes.length);
    const url = (await t.call(mediaRoutes.itemUrl, { id: done }, team.as(team.member))).body.data.url;
    const whole = await fetch(`${base}${url}`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const stored = await fs.readdir(path.join(dataDir, 'media', 'files'), { recursive: true });
    expect(stored.some((name) => name.includes('passwd'))).toBe(false);
  });

  it('resumes with HEAD, refuses a wrong offset, another user and a bad checksum', async () => {
    const bytes = noise(100_000, 7);
    const me = team.as(team.member);
    const created = await create(me, bytes.length);
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location') ?? '', base).pathname;
    expect((await patch(url, me, 0, bytes.subarray(0, 40_000))).status).toBe(204);
    expect((await head(url, me)).headers.get('upload-offset')).toBe('40000');
    expect((await patch(url, me, 10, bytes.subarray(10, 20))).status).toBe(409);
    // Someone else, even the team's creator, cannot see or touch the upload.
    expect((await head(url, team.as(team.creator))).status).toBe(404);
    expect((await patch(url, team.as(team.creator), 40_000, bytes.subarray(40_000))).status).toBe(404);
    const wrong = createHash('sha1').update('not these bytes').digest('base64');
    const mismatch = await patch(url, me, 40_000, bytes.subarray(40_000, 60_000), {
      'upload-checksum': `sha1 ${wrong}`,
    });
    expect(mismatch.status).toBe(460);
    expect((await head(url, me)).headers.get('upload-offset')).toBe('40000');
    const right = createHash('sha1').update(bytes.subarray(40_000)).digest('base64');
    const last = await patch(url, me, 40_000, bytes.subarray(40_000), { 'upload-checksum': `sha1 ${right}` });
    expect(last.status).toBe(204);
    const got = await item(last.headers.get('media-item-id') ?? '');
    expect(got).toMatchObject({ kind: 'other', size: bytes.length, status: 'ready' });
  });

  it('refuses 5 GB + 1 byte, a foreign library and a quota overrun, before and during an upload', async () => {
    const me = team.as(team.member);
    const tooBig = await create(me, MEDIA_FILE_MAX_BYTES + 1);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toContain('5 GB');
    const strangers = await create(team.as(team.stranger, team.strangerTeamId), 10);
    expect(strangers.status).toBe(404);
    const usage = (await t.call(mediaRoutes.usage, {}, me)).body.data;
    const room = usage.quota_bytes - usage.used_bytes;
    const first = await create(me, room - 10);
    expect(first.status).toBe(201);
    // The first upload holds its room: a second one does not fit any more.
    expect((await create(me, 100)).status).toBe(413);
    const url = new URL(first.headers.get('location') ?? '', base).pathname;
    // Bytes land meanwhile (another server's upload finished): the next chunk is refused.
    const grow = (by: number) =>
      t.database.db.execute(
        sql`update media_items set size = size + ${by} where id = (select min(id::text)::uuid from media_items)`,
      );
    await grow(1000);
    expect((await patch(url, me, 0, noise(100))).status).toBe(413);
    await grow(-1000);
    // Terminating the upload gives its room back.
    const gone = await fetch(`${base}${url}`, { method: 'DELETE', headers: { ...me, 'tus-resumable': '1.0.0' } });
    expect(gone.status).toBe(204);
    await expect
      .poll(async () => (await t.call(mediaRoutes.usage, {}, me)).body.data.used_bytes)
      .toBe(usage.used_bytes);
  });

  it('continues an upload after the server restarted on the same data directory', async () => {
    await t.call(mediaRoutes.itemList, { library_id: library }, team.as(team.member));
    const bytes = noise(50_000, 3);
    const me = team.as(team.creator);
    const lib = (await t.call(mediaRoutes.libraryCreate, { name: 'Restart' }, me)).body.data.id;
    const created = await create(me, bytes.length, { library_id: lib });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location') ?? '', base).pathname;
    expect((await patch(url, me, 0, bytes.subarray(0, 20_000))).status).toBe(204);
    const second = await start({ DATA_DIR: dataDir }, t);
    try {
      const res = await fetch(`${second.base}${url}`, { method: 'HEAD', headers: { ...me, 'tus-resumable': '1.0.0' } });
      expect(res.headers.get('upload-offset')).toBe('20000');
      const last = await fetch(`${second.base}${url}`, {
        method: 'PATCH',
        headers: {
          ...me,
          'tus-resumable': '1.0.0',
          'upload-offset': '20000',
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes.subarray(20_000),
      });
      expect(last.status).toBe(204);
      const id = last.headers.get('media-item-id') ?? '';
      const urlOf = (await second.t.call(mediaRoutes.itemUrl, { id }, me)).body.data.url;
      const back = Buffer.from(await (await fetch(`${second.base}${urlOf}`)).arrayBuffer());
      expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      await second.t.close();
    }
  });
});
