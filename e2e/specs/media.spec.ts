import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { ERRORS, MEDIA_THUMB_PATH, teamRoutes } from '@athena/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { noToasts, switchLanguage } from '../support/billing.ts';
import { clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

// A team of its own, so its storage quota and libraries are this spec's alone.
const CREATOR_PHONE = '13800000011';
const CHUNK = 8 * 1024 * 1024;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
};
/** A WAV file: 3 s of a quiet 440 Hz tone, 8 kHz, 8-bit mono PCM (no ffmpeg needed). */
function makeWav(): Buffer {
  const rate = 8000;
  const samples = Buffer.from(
    Array.from({ length: rate * 3 }, (_, i) => 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / rate))),
  );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** An RGB PNG of one colour: by default a 64×64 blue square, so the image page shows something real. */
function makePng(width = 64, height = 64, rgb = [40, 110, 220]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.from([0, ...Array.from({ length: width }, () => rgb).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 3 s WebM test pattern, made with the ffmpeg the server ships for its poster frames. */
function makeVideo(file: string) {
  const require = createRequire(new URL('../../apps/server/package.json', import.meta.url));
  const ffmpeg = path.join(path.dirname(require.resolve('@ffmpeg-installer/linux-x64/package.json')), 'ffmpeg');
  const pattern = 'testsrc=size=320x180:rate=15:duration=3';
  execFileSync(ffmpeg, ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', pattern, '-c:v', 'libvpx', file]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const row = (page: Page, name: string) => page.locator(`[data-testid="upload-row"][data-name="${name}"]`);
const tile = (page: Page, name: string) => page.locator(`[data-testid="media-item"][data-name="${name}"]`);

/** The item's thumbnail in the library once the server made it and the browser loaded it; its src. */
async function loadedThumb(page: Page, name: string): Promise<string> {
  const image = tile(page, name).locator('img[data-testid="media-thumb"]');
  // Previews are made by a job after the upload; the list asks again until they are there.
  await image.waitFor({ timeout: 30_000 });
  await expect
    .poll(() =>
      image.evaluate((node) => ((node as HTMLImageElement).complete ? (node as HTMLImageElement).naturalWidth : 0)),
    )
    .toBeGreaterThan(0);
  const src = (await image.getAttribute('src')) ?? '';
  expect(src).toContain(MEDIA_THUMB_PATH);
  return src;
}

describe('media libraries', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dir = mkdtempSync(path.join(tmpdir(), 'athena-media-'));
  // Files on disk keep their modification time, so the same file after a reload is recognised.
  const png = path.join(dir, 'blue-square.png');
  const doc = path.join(dir, 'notes.bin');
  const big = path.join(dir, 'big-video.bin');
  const wav = path.join(dir, 'tone.wav');
  const video = path.join(dir, 'clip.webm');

  beforeAll(async () => {
    writeFileSync(png, makePng());
    writeFileSync(doc, randomBytes(300 * 1024));
    writeFileSync(big, randomBytes(2 * CHUNK + 1024 * 1024));
    writeFileSync(wav, makeWav());
    makeVideo(video);
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '媒体库测试' }, { token });
    context = await newContext(browser, 'zh-CN');
    page = await context.newPage();
    await page.goto(`/medialib?token=${token}&spaceId=${team.id}`);
  });

  afterAll(() => browser.close());

  it('creates a library and uploads two files at once; pauses, resumes and survives a reload', async () => {
    await page.getByTestId('media-empty').waitFor();
    await page.getByTestId('media-usage').waitFor();
    await screenshot(page, 'media-empty-zh-CN');
    await page.getByTestId('library-create').first().click();
    await page.getByTestId('library-form-name').fill('宣传素材');
    await page.getByTestId('library-form-description').fill('发布会的视频和图片');
    await clickWhenSettled(page, 'library-form-submit');
    await page.getByTestId('page-library').waitFor();
    await page.getByTestId('media-items-empty').waitFor();

    await page.getByTestId('media-file-input').setInputFiles([png, doc]);
    await row(page, 'blue-square.png').and(page.locator('[data-status="done"]')).waitFor();
    await row(page, 'notes.bin').and(page.locator('[data-status="done"]')).waitFor();
    await page.locator('[data-testid="media-item"][data-name="blue-square.png"]').waitFor();
    await page.locator('[data-testid="media-item"][data-name="notes.bin"]').waitFor();
    await screenshot(page, 'media-library-zh-CN');

    // Each chunk is held back a moment on its way, so there is time to pause and to reload mid-file.
    await page.route('**/api/athena/v1/media/upload/**', async (route) => {
      if (route.request().method() === 'PATCH') await sleep(1200);
      await route.continue().catch(() => undefined);
    });
    await page.getByTestId('upload-clear').click();
    await page.getByTestId('media-file-input').setInputFiles(big);
    const bigRow = row(page, 'big-video.bin');
    await page.waitForRequest((r) => r.method() === 'PATCH');
    await bigRow.getByTestId('upload-pause').click();
    await bigRow.and(page.locator('[data-status="paused"]')).waitFor();
    await bigRow.getByTestId('upload-resume').click();
    // After the first chunk has landed, reload while the second is on its way.
    await page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 204);
    await page.reload();
    await page.getByTestId('page-library').waitFor();
    // The panel remembers the interrupted file and asks for it again (a page cannot reopen a file).
    await page.locator('[data-testid="upload-unfinished-row"][data-name="big-video.bin"]').waitFor();
    await screenshot(page, 'media-upload-interrupted-zh-CN');
    const resumedAt = page.waitForRequest(
      (r) => r.method() === 'PATCH' && Number(r.headers()['upload-offset'] ?? '0') >= CHUNK,
    );
    await page.getByTestId('media-file-input').setInputFiles(big);
    await resumedAt;
    await page.getByTestId('upload-unfinished-row').waitFor({ state: 'detached' });
    await bigRow.and(page.locator('[data-resumed="true"]')).waitFor();
    await bigRow.and(page.locator('[data-status="done"]')).waitFor({ timeout: 20_000 });
    await page.unroute('**/api/athena/v1/media/upload/**');
    await page.locator('[data-testid="media-item"][data-name="big-video.bin"]').waitFor();
    expect(await page.getByTestId('media-item').count()).toBe(3);
  });

  it('opens the image, edits its description, trashes it with undo and restores from the trash', async () => {
    await page.locator('[data-testid="media-item"][data-name="blue-square.png"]').click();
    await page.getByTestId('page-mediaItem').waitFor();
    // Ant Design's Image puts the test id on its frame or on the <img>, depending on the version.
    const image = page.locator('[data-testid="media-image"] img, img[data-testid="media-image"]').first();
    await image.waitFor();
    await expect.poll(() => image.evaluate((node) => (node as HTMLImageElement).naturalWidth)).toBe(64);
    expect(await page.getByTestId('media-mime').textContent()).toBe('image/png');
    await page.getByTestId('media-description-edit').click();
    await page.getByTestId('media-description-input').fill('封面用的蓝色方块');
    await page.getByTestId('media-description-save').click();
    await expect.poll(() => page.getByTestId('media-description').textContent()).toBe('封面用的蓝色方块');
    await noToasts(page).catch(() => undefined);
    await screenshot(page, 'media-item-zh-CN');

    await page.getByTestId('media-item-trash').click();
    await page.getByTestId('media-item-in-trash').waitFor();
    await page.getByTestId('media-undo').click();
    await page.getByTestId('media-item-in-trash').waitFor({ state: 'detached' });

    // Trash again, then restore it from the library's trash.
    await page.getByTestId('media-item-trash').click();
    await page.getByTestId('media-item-in-trash').waitFor();
    await page.getByTestId('media-item-back').click();
    await page.getByTestId('page-library').waitFor();
    await expect.poll(() => page.getByTestId('media-item').count()).toBe(2);
    await page.getByTestId('media-tab-trash').click();
    const trashed = page.locator('[data-testid="media-item"][data-name="blue-square.png"]');
    await trashed.waitFor();
    await trashed.getByTestId('media-item-menu').click();
    await page.getByTestId('media-restore').click();
    await page.getByTestId('media-items-empty').waitFor();
    await page.getByTestId('media-tab-files').click();
    await expect.poll(() => page.getByTestId('media-item').count()).toBe(3);
  });

  it('plays an audio item with seeking; the user store says so while it plays', async () => {
    await page.getByTestId('media-file-input').setInputFiles(wav);
    const item = page.locator('[data-testid="media-item"][data-name="tone.wav"]');
    await item.waitFor();
    await item.click();
    const audio = page.getByTestId('media-audio');
    await audio.waitFor();
    const itemPage = page.getByTestId('page-mediaItem');
    expect(await itemPage.getAttribute('data-playing')).toBe('false');
    // Muted, so Chromium's autoplay policy lets a script start it.
    await audio.evaluate(async (node) => {
      const player = node as HTMLAudioElement;
      player.muted = true;
      await player.play();
      player.currentTime = 1.5;
    });
    await expect.poll(() => itemPage.getAttribute('data-playing')).toBe('true');
    expect(await audio.evaluate((node) => (node as HTMLAudioElement).currentTime)).toBeGreaterThanOrEqual(1.5);
    await audio.evaluate((node) => (node as HTMLAudioElement).pause());
    await expect.poll(() => itemPage.getAttribute('data-playing')).toBe('false');
    // The trash messages (with their Undo) stay a few seconds; the screenshots wait for them to go.
    await page.waitForFunction(() => document.querySelectorAll('.ant-message-notice').length === 0, null, {
      timeout: 12_000,
    });
    // The waveform, made by the preview job, stands above the player.
    await page.getByTestId('media-player-thumb').waitFor({ timeout: 30_000 });
    // The finished uploads went away with the move to this page: nothing covers the player.
    expect(await page.getByTestId('upload-panel').count()).toBe(0);
    await screenshot(page, 'media-item-audio-zh-CN');
    await page.getByTestId('media-item-back').click();
    await page.getByTestId('page-library').waitFor();
  });

  it('shows thumbnails and a video poster; a cover replaces the thumbnail until it is removed', async () => {
    await page.getByTestId('media-file-input').setInputFiles(video);
    await tile(page, 'clip.webm').waitFor();
    await loadedThumb(page, 'blue-square.png');
    const frame = await loadedThumb(page, 'clip.webm');
    await expect.poll(() => tile(page, 'clip.webm').getByTestId('media-thumb-duration').textContent()).toBe('0:03');
    await page.getByTestId('upload-clear').click();
    await noToasts(page).catch(() => undefined);
    await screenshot(page, 'media-grid-zh-CN');
    await page.getByTestId('media-layout').locator('.ant-segmented-item').nth(1).click();
    await tile(page, 'clip.webm').getByTestId('media-item-uploader').waitFor();
    await screenshot(page, 'media-list-zh-CN');
    await page.getByTestId('media-layout').locator('.ant-segmented-item').nth(0).click();

    await tile(page, 'clip.webm').click();
    const player = page.getByTestId('media-video');
    await player.waitFor();
    expect(await player.getAttribute('poster')).toContain(MEDIA_THUMB_PATH);
    // The video plays in the page and seeks (range requests), and the user store says it plays.
    const itemPage = page.getByTestId('page-mediaItem');
    await player.evaluate(async (node) => {
      const video = node as HTMLVideoElement;
      video.muted = true;
      await video.play();
      video.currentTime = 1;
    });
    await expect.poll(() => itemPage.getAttribute('data-playing')).toBe('true');
    await expect
      .poll(() => player.evaluate((node) => (node as HTMLVideoElement).currentTime))
      .toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((node) => (node as HTMLVideoElement).videoWidth)).toBe(320);
    await player.evaluate((node) => (node as HTMLVideoElement).pause());
    await expect.poll(() => itemPage.getAttribute('data-playing')).toBe('false');
    // Anything but JPEG or PNG is refused before a byte is sent, in the server's own words.
    await page.getByTestId('media-cover-input').setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: Buffer.from('GIF89a, named like a PNG'),
    });
    expect(await page.getByTestId('media-cover-error').textContent()).toContain(
      ERRORS.MEDIA_AUX_IMAGE_INVALID.msg['zh-CN'],
    );
    await page.getByTestId('media-cover-input').setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: makePng(160, 100, [230, 100, 40]),
    });
    await page.locator('[data-testid="media-cover"][data-has-cover="true"]').waitFor();
    await expect.poll(() => player.getAttribute('poster')).not.toBe(frame);
    await page.getByTestId('media-cover-error').waitFor({ state: 'detached' });
    await noToasts(page).catch(() => undefined);
    await screenshot(page, 'media-item-video-zh-CN');
    await page.getByTestId('media-item-back').click();
    // The list shows what it had until its refetch answers.
    const thumb = tile(page, 'clip.webm').locator('img[data-testid="media-thumb"]');
    await expect.poll(() => thumb.getAttribute('src')).not.toBe(frame);
    const cover = await loadedThumb(page, 'clip.webm');

    await tile(page, 'clip.webm').click();
    await page.getByTestId('media-cover-remove').click();
    await page.locator('[data-testid="media-cover"][data-has-cover="false"]').waitFor();
    await page.getByTestId('media-item-back').click();
    await expect.poll(() => thumb.getAttribute('src')).not.toBe(cover);
    await loadedThumb(page, 'clip.webm');
  });

  it('sorts libraries into a group, then shows the pages in English and Traditional Chinese', async () => {
    await page.getByTestId('library-back').click();
    await page.getByTestId('media-group-create').click();
    await page.getByTestId('media-group-name-input').fill('发布会');
    await clickWhenSettled(page, 'media-group-name-submit');
    const group = page.locator('[data-testid="media-group-item"]', { hasText: '发布会' });
    await group.waitFor();
    await page.getByTestId('library-card-menu').click();
    await page.getByTestId('library-edit').click();
    await page.getByTestId('library-form-group').click();
    await page.locator('.ant-select-item-option', { hasText: '发布会' }).click();
    await clickWhenSettled(page, 'library-form-submit');
    await expect.poll(() => group.getByTestId('media-group-count').textContent()).toBe('1');
    await group.click();
    await page.getByTestId('page-mediaGroup').getByTestId('library-card').waitFor();
    expect(page.url()).toContain('/medialib/group/');
    await noToasts(page).catch(() => undefined);
    await screenshot(page, 'media-group-zh-CN');
    await page.getByTestId('library-card').first().click();
    await page.getByTestId('page-library').waitFor();
    for (const locale of ['en', 'zh-TW'] as const) {
      await switchLanguage(page, locale);
      await noToasts(page).catch(() => undefined);
      await page.getByTestId('media-layout').locator('.ant-segmented-item').nth(1).click();
      await page.getByTestId('media-list').waitFor();
      await screenshot(page, `media-library-list-${locale}`);
      await page.getByTestId('media-layout').locator('.ant-segmented-item').nth(0).click();
      await loadedThumb(page, 'clip.webm');
      await screenshot(page, `media-grid-${locale}`);
      await tile(page, 'clip.webm').click();
      await page.getByTestId('media-cover').waitFor();
      await screenshot(page, `media-item-video-${locale}`);
      await page.goto('/medialib');
      await page.getByTestId('library-grid').waitFor();
      await screenshot(page, `media-libraries-${locale}`);
      await page.getByTestId('library-card').first().click();
      await page.getByTestId('page-library').waitFor();
    }
  });
});
