/**
 * What a downloaded file is, by its first bytes: the sender's declared type and file name are
 * never trusted for what the browser is told. Anything not recognised is served as a download.
 */
export function sniffMediaType(bytes: Buffer): string {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  const ascii = (at: number, text: string) => bytes.subarray(at, at + text.length).toString('latin1') === text;
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF8')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(4, 'ftyp')) return 'video/mp4';
  if (ascii(0, '#!AMR')) return 'audio/amr';
  if (ascii(0, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (ascii(0, '%PDF')) return 'application/pdf';
  return 'application/octet-stream';
}

/** Types a page may show in place (img, video, audio); everything else is a download. */
export const isInlineMedia = (type: string) => /^(image\/(png|jpeg|gif|webp)|video\/mp4|audio\/(mpeg|wav))$/.test(type);
