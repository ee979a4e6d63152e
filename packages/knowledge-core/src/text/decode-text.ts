import { COMMON_CJK } from './common-cjk.ts';

/**
 * Text bytes → string. Chinese users still upload GBK (Windows "ANSI") and Big5 files, so after
 * the BOM and strict UTF-8 we try both legacy encodings and keep the one that reads like Chinese.
 */

export interface DecodedText {
  text: string;
  encoding: string;
}

const REPLACEMENT = 0xfffd;
// Enough text to tell the encodings apart; scoring a whole 20 MB file twice would be wasted work.
const SAMPLE_BYTES = 256 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function decodeWith(encoding: string, bytes: Uint8Array): string {
  return new TextDecoder(encoding).decode(bytes);
}

/** Higher is more plausible Chinese: common characters count for, replacement characters strongly against. */
function chineseScore(text: string): number {
  let score = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === REPLACEMENT) score -= 10;
    else if (COMMON_CJK.has(char)) score += 1;
    // Private-use code points appear when bytes are read in the wrong legacy encoding.
    else if (code >= 0xe000 && code <= 0xf8ff) score -= 5;
  }
  return score;
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = bomEncoding(bytes);
  // TextDecoder drops the BOM itself (ignoreBOM defaults to false).
  if (bom) return { text: decodeWith(bom, bytes), encoding: bom };
  try {
    return { text: strictUtf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: fall through to the legacy Chinese encodings.
  }
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  // Ties go to gb18030: it is a superset of GBK, the most common legacy encoding here.
  const encoding =
    chineseScore(decodeWith('big5', sample)) > chineseScore(decodeWith('gb18030', sample)) ? 'big5' : 'gb18030';
  return { text: decodeWith(encoding, bytes), encoding };
}
