import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { type Envelope, MEDIA_AUX_IMAGE_PATH, type MediaItem, mediaRoutes } from '@athena/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { mediaItems } from './media.schema.ts';
import { fixtureFfmpeg, uploadSmall } from './media-test-helpers.ts';

const run = promisify(execFile);
const FORBIDDEN = 40300;
const NOT_FOUND = 40400;

/** Media made by a native ffmpeg from its built-in test sources (the product reads them with its own). */
async function generate(dir: string) {
  const ffmpeg = (name: string, args: string[]) =>
    run(fixtureFfmpeg(), ['-v', 'error', '-y', ...args, path.join(dir, name)]).then(() =>
      fs.readFile(path.join(dir, name)),
    );
  const video = await ffmpeg('clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
  ]);
  const song = await ffmpeg('tone.mp3', ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2']);
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return { video, song, photo };
}

/** A PNG whose header claims 100 000 × 100 000 pixels (40 GB decoded) over a few bytes of data. */
function pngBomb() {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('media previews and covers', () => {
  let t: TestApp;
  let team: TeamFixture;
  let dir: string;
  let library: string;
  let media: Awaited<ReturnType<typeof generate>>;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'athena-previews-'));
    [t, media] = await Promise.all([createTestApp(), generate(dir)]);
    team = await buildTeam(t, { phonePrefix: '136400000' });
    library = (await t.call(mediaRoutes.libraryCreate, { name: 'Previews' }, team.as(team.member))).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const code = (answer: { body: Envelope }) => answer.body.code;
  const get = async (id: string, as = team.as(team.member)) =>
    (await t.call(mediaRoutes.itemGet, { id }, as)).body.data as MediaItem;
  /** Uploads, then runs the preview job as the worker would. */
  const uploaded = async (name: string, bytes: Buffer, as = team.as(team.member)) => {
    const id = await uploadSmall(t, as, library, name, bytes);
    await t.app.modules.media.previews.process(id);
    return get(id);
  };
  const fetchThumb = (url: string) => t.app.inject({ method: 'GET', url });
  const setCover = (id: string, bytes: Buffer, as: Record<string, string>, type = 'image/png') =>
    t.app.inject({
      method: 'POST',
      url: `${MEDIA_AUX_IMAGE_PATH}?id=${id}`,
      headers: { ...as, 'content-type': type },
      payload: bytes,
    });

  it('makes a poster frame, the duration and dimensions of a video', async () => {
    const id = await uploadSmall(t, team.as(team.member), library, 'clip.mp4', media.video);
    expect((await get(id)).preview).toBe('pending');
    await t.app.modules.media.previews.process(id);
    const item = await get(id);
    expect(item).toMatchObject({ kind: 'video', preview: 'ready', preview_reason: null, width: 320, height: 240 });
    expect(item.duration_ms).toBeGreaterThanOrEqual(2900);
    expect(item.created_by_name).not.toBe('');
    const thumb = await fetchThumb(item.thumbnail_url ?? '');
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 320, height: 240 });
    // An altered signature, or another item's id under this signature, is nothing.
    expect((await fetchThumb(`${item.thumbnail_url}0`)).statusCode).toBe(404);
  });

  it('draws an audio waveform and turns a sideways phone photo upright', async () => {
    const song = await uploaded('tone.mp3', media.song);
    expect(song).toMatchObject({ kind: 'audio', preview: 'ready', width: null });
    expect(song.duration_ms).toBeGreaterThan(1900);
    expect((await fetchThumb(song.thumbnail_url ?? '')).statusCode).toBe(200);
    const photo = await uploaded('photo.jpg', media.photo);
    // Stored 1200 × 800 with EXIF orientation 6: people see it 800 × 1200.
    expect(photo).toMatchObject({ kind: 'image', preview: 'ready', width: 800, height: 1200 });
    const thumb = await sharp((await fetchThumb(photo.thumbnail_url ?? '')).rawPayload).metadata();
    expect([thumb.width, thumb.height]).toEqual([427, 640]);
  });

  it('leaves bad files usable with no preview and a reason, never decoding a bomb', async () => {
    const truncated = await uploaded('cut.mp4', media.video.subarray(0, 2000));
    expect(truncated).toMatchObject({ status: 'ready', preview: 'none', preview_reason: 'unreadable' });
    const bomb = await uploaded('huge.png', pngBomb());
    expect(bomb).toMatchObject({ preview: 'none', preview_reason: 'too_large', width: 100_000, height: 100_000 });
    // A document gets its "no preview" at once, without waiting for a job.
    const noteId = await uploadSmall(t, team.as(team.member), library, 'notes.txt', Buffer.from('plain words'));
    expect(await get(noteId)).toMatchObject({
      kind: 'document',
      mime_type: 'text/plain',
      preview: 'none',
      preview_reason: 'unsupported',
      thumbnail_url: null,
    });
    // A PNG named like a video is an image and is previewed as one.
    const renamed = await uploaded('movie.mp4', await sharp(media.photo).png().toBuffer());
    expect(renamed).toMatchObject({ kind: 'image', preview: 'ready' });
    expect(renamed.status_reason).toMatch(/image\/png/);
    // The file stays downloadable whatever its preview.
    expect(code(await t.call(mediaRoutes.itemUrl, { id: truncated.id }, team.as(team.member)))).toBe(0);
  });

  it('sets a jpg/png cover that replaces the thumbnail, refuses anything else, and removes it', async () => {
    const as = team.as(team.member);
    const clip = await uploaded('cover-me.mp4', media.video);
    const png = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#a33' } })
      .png()
      .withMetadata()
      .toBuffer();
    const set = await setCover(clip.id, png, as);
    expect(set.json().code).toBe(0);
    const covered = set.json().data as MediaItem;
    expect(covered.has_aux_image).toBe(true);
    expect(covered.thumbnail_url).not.toBe(clip.thumbnail_url);
    const shown = await fetchThumb(covered.thumbnail_url ?? '');
    expect(shown.headers['content-type']).toBe('image/png');
    expect(await sharp(shown.rawPayload).metadata()).toMatchObject({ width: 1280, height: 640 });
    // The generated thumbnail's URL no longer serves once a cover replaced it.
    expect((await fetchThumb(clip.thumbnail_url ?? '')).statusCode).toBe(404);

    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expect((await setCover(clip.id, gif, as, 'image/jpeg')).json().code).toBe(40709);
    expect((await setCover(clip.id, Buffer.from('%PDF-1.4 not an image'), as)).json().code).toBe(40709);
    expect((await setCover(clip.id, pngBomb(), as)).json().code).toBe(40710);
    expect((await setCover(clip.id, Buffer.alloc(10 * 1024 ** 2 + 1, 1), as)).json().code).toBe(40710);

    const cleared = await t.call(mediaRoutes.itemAuxImageClear, { id: clip.id }, as);
    expect(cleared.body.data).toMatchObject({ has_aux_image: false });
    expect((await fetchThumb(cleared.body.data.thumbnail_url ?? '')).statusCode).toBe(200);
  });

  it('lets the uploader, admins and the creator change covers and previews; others not', async () => {
    const clip = await uploaded('theirs.mp4', media.video, team.as(team.admin));
    const png = await sharp(media.photo).png().toBuffer();
    expect((await setCover(clip.id, png, team.as(team.member))).json().code).toBe(FORBIDDEN);
    expect((await setCover(clip.id, png, team.as(team.stranger, team.strangerTeamId))).json().code).toBe(NOT_FOUND);
    expect(code(await t.call(mediaRoutes.itemReprocess, { id: clip.id }, team.as(team.member)))).toBe(FORBIDDEN);
    expect((await setCover(clip.id, png, team.as(team.creator))).json().code).toBe(0);
    // Making the preview again: back to pending, then a new thumbnail; the old one is gone.
    const again = await t.call(mediaRoutes.itemReprocess, { id: clip.id }, team.as(team.admin));
    expect(again.body.data.preview).toBe('pending');
    await t.app.modules.media.previews.process(clip.id);
    await t.call(mediaRoutes.itemAuxImageClear, { id: clip.id }, team.as(team.admin));
    const redone = await get(clip.id);
    expect(redone.preview).toBe('ready');
    expect(redone.thumbnail_url).not.toBe(clip.thumbnail_url);
    expect((await fetchThumb(clip.thumbnail_url ?? '')).statusCode).toBe(404);
  });

  it('purges the thumbnail and the cover with the item', async () => {
    const as = team.as(team.member);
    const clip = await uploaded('gone.mp4', media.video);
    await setCover(clip.id, await sharp(media.photo).png().toBuffer(), as);
    const { files } = t.app.modules.media;
    const [row] = await t.database.db.select().from(mediaItems).where(eq(mediaItems.id, clip.id));
    await t.call(mediaRoutes.itemDelete, { id: clip.id }, as);
    expect(code(await t.call(mediaRoutes.itemPurge, { id: clip.id }, as))).toBe(0);
    for (const key of [row?.thumbKey, row?.auxImageKey]) expect(await files.stat(key ?? '')).toBeNull();
  });
});

describe('media previews through the job queue', () => {
  it('makes the preview in a pg-boss job after the upload, with no one asking', async () => {
    const t = await createTestApp({ jobs: true });
    try {
      const team = await buildTeam(t, { phonePrefix: '136410000' });
      const as = team.as(team.member);
      const library = (await t.call(mediaRoutes.libraryCreate, { name: 'Queued' }, as)).body.data.id;
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123' } })
        .png()
        .toBuffer();
      const id = await uploadSmall(t, as, library, 'queued.png', png);
      let item: MediaItem | undefined;
      for (let tries = 0; tries < 100 && item?.preview !== 'ready'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        item = (await t.call(mediaRoutes.itemGet, { id }, as)).body.data;
      }
      expect(item).toMatchObject({ preview: 'ready', width: 64, height: 48 });
    } finally {
      await t.close();
    }
  }, 60_000);
});
