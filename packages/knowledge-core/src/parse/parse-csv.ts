import { decodeText } from '../text/decode-text.ts';
import type { ParsedDocument } from '../types.ts';
import { papaparse } from './papaparse.ts';
import { tableDocument } from './table-document.ts';

export function parseCsv(bytes: Uint8Array): ParsedDocument {
  const { text, encoding } = decodeText(bytes);
  // Papa reports ragged rows and stray quotes as errors but still returns the rows; they are kept.
  const { data } = papaparse().parse<string[]>(text, { skipEmptyLines: 'greedy' });
  return tableDocument('csv', data, encoding);
}
