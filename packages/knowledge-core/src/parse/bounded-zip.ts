import { inflateRawSync } from 'node:zlib';
import { findEndOfCentralDirectory } from '../sniff/zip-entry-names.ts';
import { KnowledgeFileError } from '../types.ts';

/**
 * DOCX and XLSX are zip archives, and the Office parsers (mammoth, exceljs) unzip them with JSZip,
 * which inflates whatever the archive holds: 341 KB inflating to 120 MB of XML took the server
 * down. So archives are unzipped here first, within limits checked while inflating, and the
 * parsers get a copy of the checked entries stored without compression: they cannot read anything
 * this reader did not count, however the original archive lies.
 */
export interface ZipLimits {
  /** Entries at most: a Word document or a workbook has dozens. */
  maxEntries: number;
  /** All entries together, inflated. */
  maxInflatedBytes: number;
  /**
   * Inflated ÷ compressed, for an entry above ENTRY_RATIO_GRACE_BYTES. Office XML compresses 5–50
   * times; a bomb of repeated XML 300–1 000 times, so it is refused from its headers, before
   * anything is inflated.
   */
  maxRatio: number;
}

const MB = 1024 * 1024;
export const ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxInflatedBytes: 100 * MB, maxRatio: 200 };
/** Small entries (styles, relationships) may compress far better than text and cost nothing. */
const ENTRY_RATIO_GRACE_BYTES = MB;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8_NAME = 0x800;

export interface ZipEntry {
  name: string;
  /** The name as the archive spells it, kept for the stored copy. */
  nameBytes: Uint8Array;
  utf8Name: boolean;
  crc: number;
  data: Uint8Array;
}

/** Past a limit: the file may be genuine, only too big or too intricate to unpack safely. */
const tooComplex = (detail: string) => new KnowledgeFileError('FILE_TOO_COMPLEX', detail);
const refuse = (detail: string) => new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', detail);
const latin1 = new TextDecoder('latin1');

interface Listed {
  name: string;
  nameBytes: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The central directory's records, every size and count checked before anything is inflated. */
function listEntries(bytes: Uint8Array, limits: ZipLimits): Listed[] {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(data);
  if (end < 0) throw refuse('The archive has no central directory.');
  const count = data.getUint16(end + 10, true);
  if (data.getUint16(end + 4, true) !== 0 || data.getUint16(end + 8, true) !== count) {
    throw refuse('Archives split over several disks are not read.');
  }
  if (count > limits.maxEntries)
    throw tooComplex(`The archive holds ${count} entries; at most ${limits.maxEntries} are read.`);
  let offset = data.getUint32(end + 16, true);
  const entries: Listed[] = [];
  const names = new Set<string>();
  let total = 0;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > bytes.length || data.getUint32(offset, true) !== CENTRAL_HEADER) {
      throw refuse('The archive’s central directory is damaged.');
    }
    const nameLength = data.getUint16(offset + 28, true);
    const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
    const entry: Listed = {
      name: latin1.decode(nameBytes),
      nameBytes,
      flags: data.getUint16(offset + 8, true),
      method: data.getUint16(offset + 10, true),
      crc: data.getUint32(offset + 16, true),
      compressedSize: data.getUint32(offset + 20, true),
      size: data.getUint32(offset + 24, true),
      localOffset: data.getUint32(offset + 42, true),
    };
    offset += 46 + nameLength + data.getUint16(offset + 30, true) + data.getUint16(offset + 32, true);
    if (entry.flags & FLAG_ENCRYPTED) throw refuse('The document is encrypted.');
    if (entry.method !== STORED && entry.method !== DEFLATED) throw refuse('The archive uses an unknown compression.');
    if ([entry.compressedSize, entry.size, entry.localOffset].includes(ZIP64_MARK)) {
      throw refuse('Zip64 archives are not read.');
    }
    // Two entries of one name would let two readers see two different documents.
    if (names.has(entry.name)) throw refuse('The archive names an entry twice.');
    names.add(entry.name);
    total += entry.size;
    if (total > limits.maxInflatedBytes) {
      throw tooComplex(`The archive inflates to more than ${limits.maxInflatedBytes / MB} MB.`);
    }
    if (entry.size > ENTRY_RATIO_GRACE_BYTES && entry.size > entry.compressedSize * limits.maxRatio) {
      throw tooComplex(`“${entry.name}” inflates more than ${limits.maxRatio} times: a zip bomb.`);
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * The entry's bytes. Inflation stops at the size the directory declared: an entry that lies about
 * it is refused after at most that many bytes, never inflated to what it really holds.
 */
function readEntry(bytes: Uint8Array, data: DataView, entry: Listed): Uint8Array {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || data.getUint32(at, true) !== LOCAL_HEADER) {
    throw refuse(`The archive’s entry “${entry.name}” is damaged.`);
  }
  const start = at + 30 + data.getUint16(at + 26, true) + data.getUint16(at + 28, true);
  const stored = bytes.subarray(start, start + entry.compressedSize);
  if (stored.length !== entry.compressedSize) throw refuse('The archive is truncated.');
  let content: Uint8Array;
  if (entry.method === STORED) content = stored;
  else {
    try {
      content = inflateRawSync(stored, { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw refuse(
        tooLarge
          ? `“${entry.name}” inflates to more than the ${entry.size} bytes its header declares.`
          : `“${entry.name}” cannot be inflated.`,
      );
    }
  }
  if (content.length !== entry.size) throw refuse(`“${entry.name}” is not the size its header declares.`);
  return content;
}

/**
 * Every entry of a zip archive, inflated within `limits`. Throws FILE_TOO_COMPLEX for an archive
 * past them, UNSUPPORTED_FILE_FORMAT for one that is damaged, encrypted, split, zip64 or names an
 * entry twice.
 */
export function unzipBounded(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return listEntries(bytes, limits).map((entry) => ({
    name: entry.name,
    nameBytes: entry.nameBytes,
    utf8Name: (entry.flags & FLAG_UTF8_NAME) !== 0,
    crc: entry.crc,
    data: readEntry(bytes, data, entry),
  }));
}

/** The entries as a zip archive again, stored without compression (nothing left to inflate). */
export function storedZip(entries: ZipEntry[]): Buffer {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const flags = entry.utf8Name ? FLAG_UTF8_NAME : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(entry.nameBytes.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(CENTRAL_HEADER, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.data.length, 24);
    record.writeUInt16LE(entry.nameBytes.length, 28);
    record.writeUInt32LE(offset, 42);
    parts.push(local, entry.nameBytes, entry.data);
    central.push(record, entry.nameBytes);
    offset += 30 + entry.nameBytes.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}
