import { decodeText } from '../text/decode-text.ts';
import type { ParsedDocument } from '../types.ts';
import { textToBlocks } from './text-blocks.ts';

export function parseTxt(bytes: Uint8Array): ParsedDocument {
  const { text, encoding } = decodeText(bytes);
  const normalized = text.replace(/\r\n?/g, '\n');
  return { kind: 'txt', blocks: textToBlocks(normalized, 'keep-breaks'), table: null, pages: null, encoding };
}
