import { MEDIA_AUX_IMAGE_MAX_BYTES, MEDIA_PREVIEW_MAX_PIXELS } from '@athena/contract';
import { AppError } from '../../platform/http/app-error.ts';
import { imageSize, loadSharp } from './preview-maker.ts';

/** A cover is shown at most this large (the item page); the grid uses it as it is. */
const COVER_EDGE = 1280;

/**
 * A cover (auxiliary image) as stored: checked to be a JPEG or PNG by its bytes (the name and the
 * declared type prove nothing), refused beyond MEDIA_PREVIEW_MAX_PIXELS before it is decoded,
 * then re-encoded in its own format without its metadata (no GPS position from a phone photo).
 */
export async function encodeCover(bytes: Buffer): Promise<Buffer> {
  if (bytes.length > MEDIA_AUX_IMAGE_MAX_BYTES) throw new AppError('MEDIA_AUX_IMAGE_TOO_LARGE');
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime !== 'image/jpeg' && type?.mime !== 'image/png') throw new AppError('MEDIA_AUX_IMAGE_INVALID');
  let size: Awaited<ReturnType<typeof imageSize>>;
  try {
    size = await imageSize(bytes);
  } catch {
    throw new AppError('MEDIA_AUX_IMAGE_INVALID');
  }
  if (size.tooLarge) throw new AppError('MEDIA_AUX_IMAGE_TOO_LARGE');
  const sharp = await loadSharp();
  const image = sharp(bytes, { limitInputPixels: MEDIA_PREVIEW_MAX_PIXELS })
    .rotate()
    .resize(COVER_EDGE, COVER_EDGE, { fit: 'inside', withoutEnlargement: true });
  try {
    return await (type.mime === 'image/png' ? image.png() : image.jpeg({ quality: 85, mozjpeg: true })).toBuffer();
  } catch {
    // A header that promised an image and data that is not one (a truncated file).
    throw new AppError('MEDIA_AUX_IMAGE_INVALID');
  }
}

/** The content type of a stored thumbnail or cover, from its first bytes. */
export function imageTypeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF') return 'image/webp';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'image/png';
  return 'image/jpeg';
}
