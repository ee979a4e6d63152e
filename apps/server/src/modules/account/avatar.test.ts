import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_PATH, authRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { sniffAvatar } from './avatar.ts';

/** A real PNG of `size`×`size` random RGB pixels, optionally padded to a total length. */
function makePng(size: number, totalLength?: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(
    Array.from({ length: size }, () => Buffer.concat([Buffer.from([0]), randomBytes(size * 3)])),
  );
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
  ];
  const end = chunk('IEND', Buffer.alloc(0));
  const soFar = parts.reduce((n, part) => n + part.length, end.length);
  // Ancillary private chunk ("atHn") as padding keeps the file a valid PNG at any length.
  if (totalLength !== undefined) parts.push(chunk('atHn', Buffer.alloc(totalLength - soFar - 12)));
  return Buffer.concat([...parts, end]);
}

/** JPEG-shaped bytes: SOI, a JFIF APP0 segment, noise, EOI. The server checks the signature only. */
function makeJpeg() {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, randomBytes(512), Buffer.from([0xff, 0xd9])]);
}

const GIF = Buffer.concat([Buffer.from('GIF89a', 'ascii'), randomBytes(64)]);

describe('account: avatar', () => {
  let t: TestApp;
  let token: string;
  const upload = (payload: Buffer, contentType: string | undefined, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: AVATAR_UPLOAD_PATH,
      headers: { token, ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      payload,
    });
  const avatarUrl = async () => (await t.call(authRoutes.userInfo, {}, { token })).body.data.avatar_url;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.signInBySms('13100000001');
  });
  afterAll(() => t.close());

  it.each([
    ['PNG', makePng(8), 'image/png', 'image/png', 'png'],
    ['JPEG', makeJpeg(), 'image/jpeg', 'image/jpeg', 'jpg'],
    // The bytes decide, not the label: a PNG sent as image/jpeg is kept and served as a PNG.
    ['mislabelled PNG', makePng(4), 'image/jpeg', 'image/png', 'png'],
  ])(
    'stores a %s, shows it in user/info at once and serves the same bytes',
    async (_name, bytes, sent, served, ext) => {
      const res = await upload(bytes, sent);
      expect(res.statusCode).toBe(200);
      const url = res.json().data.avatar_url as string;
      expect(res.json()).toMatchObject({ code: 0, msg: 'ok' });
      expect(url).toMatch(new RegExp(`^/files/avatars/[0-9a-f-]{36}/[0-9a-f]{32}\\.${ext}$`));
      expect(await avatarUrl()).toBe(url);

      const file = await t.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe(served);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(file.rawPayload.equals(bytes)).toBe(true);
    },
  );

  it('accepts exactly 2 MB', async () => {
    const bytes = makePng(2, AVATAR_MAX_BYTES);
    expect(bytes.length).toBe(AVATAR_MAX_BYTES);
    expect(sniffAvatar(bytes)).toBe('image/png');
    expect((await upload(bytes, 'image/png')).json().code).toBe(0);
  });

  it.each([
    ['2 MB + 1 byte', AVATAR_MAX_BYTES + 1],
    ['3 MB', 3 * 1024 * 1024],
  ])('refuses %s with a 413 envelope and keeps the old avatar', async (_name, length) => {
    const before = await avatarUrl();
    const res = await upload(makePng(2, length), 'image/png', { language: 'en' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 40054, msg: 'The avatar must be 2 MB or smaller.' });
    expect(await avatarUrl()).toBe(before);
  });

  it.each([
    ['a GIF renamed .png', GIF, 'image/png'],
    ['a text file renamed .png', Buffer.from('hello, this is not an image\n'), 'image/png'],
    ['a text file renamed .jpg', Buffer.from('<svg onload="alert(1)"/>'), 'image/jpeg'],
    ['a GIF as itself', GIF, 'image/gif'],
    ['a PNG sent as JSON', makePng(2), 'application/json'],
    ['a PNG with no content type', makePng(2), undefined],
    ['nothing at all', Buffer.alloc(0), 'image/png'],
    ['just the PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png'],
  ])('refuses %s as AVATAR_INVALID', async (_name, bytes, contentType) => {
    const before = await avatarUrl();
    const res = await upload(bytes, contentType);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 40053, msg: '头像仅支持 JPG 或 PNG 图片。' });
    expect(await avatarUrl()).toBe(before);
  });

  it('localises the refusal', async () => {
    expect((await upload(GIF, 'image/png', { language: 'zh-TW' })).json().msg).toBe('頭像僅支援 JPG 或 PNG 圖片。');
    expect((await upload(GIF, 'image/png', { language: 'en' })).json().msg).toBe(
      'The avatar must be a JPG or PNG image.',
    );
  });

  it('needs a session before it reads the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: AVATAR_UPLOAD_PATH,
      headers: { 'content-type': 'image/png', token: 'garbage' },
      payload: makePng(2, 3 * 1024 * 1024),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(10001);
  });

  it('answers missing or impossible file keys with a 404 envelope', async () => {
    for (const url of [
      '/files/avatars/00000000-0000-0000-0000-000000000000/0000.png',
      '/files/../../etc/passwd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      '/files/avatars/..%2F..%2Fmaster.key',
      '/files/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('keeps JSON the only body type on every other call', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/accountv2/user/update',
      headers: { token, 'content-type': 'image/png' },
      payload: makePng(2),
    });
    expect(res.json().code).toBe(40000);
  });
});
