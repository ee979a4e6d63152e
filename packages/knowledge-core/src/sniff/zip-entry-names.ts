/**
 * The file names inside a zip archive, read from the central directory (no decompression). DOCX and
 * XLSX are zips told apart only by their entries, and reading names is far cheaper than unzipping.
 */

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const EOCD_MIN_SIZE = 22;
// The archive comment (at most 65 535 bytes) may follow the end-of-central-directory record.
const EOCD_SEARCH_WINDOW = EOCD_MIN_SIZE + 0xffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && view(bytes).getUint32(0, true) === LOCAL_HEADER;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const latin1 = new TextDecoder('latin1');

/** Where the end-of-central-directory record starts, or -1. */
export function findEndOfCentralDirectory(data: DataView): number {
  const lowest = Math.max(0, data.byteLength - EOCD_SEARCH_WINDOW);
  for (let offset = data.byteLength - EOCD_MIN_SIZE; offset >= lowest; offset--) {
    if (data.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

function namesFromCentralDirectory(bytes: Uint8Array, data: DataView): string[] | null {
  const eocd = findEndOfCentralDirectory(data);
  if (eocd < 0) return null;
  const entryCount = data.getUint16(eocd + 10, true);
  let offset = data.getUint32(eocd + 16, true);
  const names: string[] = [];
  for (let index = 0; index < entryCount; index++) {
    if (offset + 46 > data.byteLength || data.getUint32(offset, true) !== CENTRAL_HEADER) return null;
    const nameLength = data.getUint16(offset + 28, true);
    const extraLength = data.getUint16(offset + 30, true);
    const commentLength = data.getUint16(offset + 32, true);
    names.push(latin1.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

// Fallback for archives whose central directory is missing or damaged (e.g. a truncated upload):
// walk the local headers from the start, as far as the sizes in them allow.
function namesFromLocalHeaders(bytes: Uint8Array, data: DataView): string[] {
  const names: string[] = [];
  let offset = 0;
  while (offset + 30 <= data.byteLength && data.getUint32(offset, true) === LOCAL_HEADER) {
    const compressedSize = data.getUint32(offset + 18, true);
    const nameLength = data.getUint16(offset + 26, true);
    const extraLength = data.getUint16(offset + 28, true);
    names.push(latin1.decode(bytes.subarray(offset + 30, offset + 30 + nameLength)));
    // With a data descriptor (flag bit 3) the size is unknown here; stop rather than guess.
    if ((data.getUint16(offset + 6, true) & 0x8) !== 0) break;
    offset += 30 + nameLength + extraLength + compressedSize;
  }
  return names;
}

export function zipEntryNames(bytes: Uint8Array): string[] {
  const data = view(bytes);
  return namesFromCentralDirectory(bytes, data) ?? namesFromLocalHeaders(bytes, data);
}
