import { ATTACHMENT_NAME_MAX, type AttachmentType } from '@athena/contract';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');
const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_END = 0x06054b50;

const startsWith = (bytes: Buffer, signature: Buffer) =>
  bytes.length > signature.length && bytes.subarray(0, signature.length).equals(signature);

/**
 * The names inside a ZIP archive, read from its central directory (never decompressing
 * anything). null when the bytes are not a well-formed archive.
 */
export function zipEntryNames(bytes: Buffer): string[] | null {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== ZIP_LOCAL) return null;
  // The end record sits in the last 22 bytes plus an optional comment of up to 65 535 bytes.
  const floor = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let at = bytes.length - 22; at >= floor; at--) {
    if (bytes.readUInt32LE(at) === ZIP_END) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== ZIP_CENTRAL) return null;
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    if (at + 46 + nameLength > bytes.length) return null;
    names.push(bytes.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/**
 * What the bytes themselves are, among the accepted attachment types; a file's name or declared
 * type proves nothing. DOCX and XLSX are both ZIP archives: their parts tell them apart
 * (`word/…` or `xl/…` beside `[Content_Types].xml`).
 */
export function sniffAttachment(bytes: Buffer): AttachmentType | null {
  if (startsWith(bytes, PDF)) return 'application/pdf';
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  const names = zipEntryNames(bytes);
  if (!names?.includes('[Content_Types].xml')) return null;
  if (names.some((name) => name.startsWith('word/'))) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  if (names.some((name) => name.startsWith('xl/'))) {
    return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
  return null;
}

/**
 * The original file name from its percent-encoded header, reduced to something safe to store and
 * show: no directories, no control or bidi-override characters, at most ATTACHMENT_NAME_MAX
 * characters with the extension kept. null when nothing usable is left.
 */
export function cleanFileName(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length > 4 * 1024) return null;
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    return null;
  }
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  name = name.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (!name || name === '.' || name === '..') return null;
  const chars = [...name];
  if (chars.length <= ATTACHMENT_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return [...name.slice(0, name.length - ext.length)].slice(0, ATTACHMENT_NAME_MAX - ext.length).join('') + ext;
}

/**
 * Content-Disposition for a download: an ASCII fallback plus the exact name in RFC 5987 form,
 * so quotes, semicolons or line breaks in a name can never break out of the header.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_') || 'attachment';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
