import { MEDIA_PREVIEW_MAX_PIXELS, type MediaKind, type MediaPreviewReason } from '@athena/contract';
import type Sharp from 'sharp';
import { type MediaTools, ToolTimeout } from './media-tools.ts';

let loadingSharp: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded with the first image rather than at start-up: libvips costs ~10 MB of resident
 * memory and 0.1–0.4 s to load, which a server that never sees an image should not pay
 * (docs/benchmarks.md, "Start-up and idle memory").
 */
export function loadSharp() {
  loadingSharp ??= import('sharp').then((module) => {
    const sharp = module.default as typeof Sharp;
    // libvips works on its own threads, off the event loop; one at a time keeps the second core for
    // requests, and no cache keeps memory flat across thousands of files.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loadingSharp;
}

/** The longest edge of a thumbnail, in pixels (enough for a 2× grid cell and the player's poster). */
export const THUMB_EDGE = 640;
const WAVE_COLOR = '0x4f7cff';

export type Preview =
  | {
      preview: 'ready';
      thumb: Buffer | null;
      durationMs: number | null;
      width: number | null;
      height: number | null;
    }
  | {
      preview: 'none';
      reason: MediaPreviewReason;
      durationMs?: number | null;
      width?: number | null;
      height?: number | null;
    };

/** The image types libvips (sharp's prebuilt binaries) decodes; others (PSD, ICO, BMP…) get an icon. */
const SHARP_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

const none = (reason: MediaPreviewReason, facts: Partial<Preview> = {}): Preview => ({
  ...facts,
  preview: 'none',
  reason,
});

/** A WebP thumbnail of any image sharp reads, scaled down to THUMB_EDGE, metadata dropped. */
const toThumb = async (input: string | Buffer) =>
  (await loadSharp())(input, { limitInputPixels: MEDIA_PREVIEW_MAX_PIXELS, sequentialRead: true })
    .rotate()
    .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();

/**
 * The dimensions of an image from its header alone. Beyond MEDIA_PREVIEW_MAX_PIXELS it is never
 * decoded (a PNG that claims 100 000 × 100 000 would need 40 GB), so a bomb costs a header read.
 */
export async function imageSize(input: string | Buffer) {
  const sharp = await loadSharp();
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  // EXIF orientations 5–8 turn the picture a quarter: what people see is the other way round.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? null;
  const height = (turned ? meta.width : meta.height) ?? null;
  return { width, height, tooLarge: (meta.width ?? 0) * (meta.height ?? 0) > MEDIA_PREVIEW_MAX_PIXELS };
}

async function imagePreview(file: string): Promise<Preview> {
  const size = await imageSize(file);
  if (size.tooLarge) return none('too_large', { width: size.width, height: size.height });
  return { preview: 'ready', thumb: await toThumb(file), durationMs: null, ...size };
}

async function videoPreview(tools: MediaTools, file: string): Promise<Preview> {
  const facts = await tools.probe(file);
  if (!facts.hasVideo) {
    return facts.hasAudio ? audioPreview(tools, file) : none('unreadable', { durationMs: facts.durationMs });
  }
  // A tenth in, at most ten seconds: past a black first frame or a fade-in, cheap to seek to.
  const at = facts.durationMs ? Math.min(facts.durationMs / 10_000, 10) : 0;
  let frame = await tools.frameAt(file, at, THUMB_EDGE);
  // A seek past the last decodable frame (a truncated file) gives nothing: try the first frame.
  if (frame.length === 0 && at > 0) frame = await tools.frameAt(file, 0, THUMB_EDGE);
  const { durationMs, width, height } = facts;
  if (frame.length === 0) return none('unreadable', { durationMs, width, height });
  return { preview: 'ready', thumb: await toThumb(frame), durationMs, width, height };
}

async function audioPreview(tools: MediaTools, file: string): Promise<Preview> {
  const facts = await tools.probe(file);
  if (!facts.hasAudio) return none('unreadable', { durationMs: facts.durationMs });
  const wave = await tools.waveform(file, THUMB_EDGE, Math.round(THUMB_EDGE / 4), WAVE_COLOR);
  const thumb = wave.length > 0 ? await (await loadSharp())(wave).webp({ quality: 80 }).toBuffer() : null;
  return { preview: 'ready', thumb, durationMs: facts.durationMs, width: null, height: null };
}

/**
 * Looks at a stored file of a sniffed kind and makes what the pages show: a thumbnail, and the
 * duration and dimensions. Never throws for a bad file: the answer is `none` with a reason.
 */
export async function makePreview(tools: MediaTools, file: string, kind: MediaKind, mime: string): Promise<Preview> {
  try {
    if (kind === 'image') return SHARP_TYPES.has(mime) ? await imagePreview(file) : none('unsupported');
    if (kind === 'video') return await videoPreview(tools, file);
    if (kind === 'audio') return await audioPreview(tools, file);
    return none('unsupported');
  } catch (error) {
    return none(error instanceof ToolTimeout ? 'timeout' : 'unreadable');
  }
}
