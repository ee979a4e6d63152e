import { papaparse } from '../parse/papaparse.ts';

// Judging the start of the file is enough; parsing a 20 MB CSV twice would only cost time.
const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_ROWS = 50;

/** Most rows have at least two fields once papaparse has guessed the delimiter. */
export function looksLikeDelimited(text: string): boolean {
  let sample = text.slice(0, SAMPLE_CHARS);
  if (text.length > SAMPLE_CHARS) {
    // Drop the last, probably cut, line.
    const lastBreak = sample.lastIndexOf('\n');
    if (lastBreak > 0) sample = sample.slice(0, lastBreak);
  }
  const { data } = papaparse().parse<string[]>(sample, { skipEmptyLines: 'greedy', preview: SAMPLE_ROWS });
  if (data.length === 0) return false;
  const wide = data.filter((row) => row.length >= 2).length;
  return data[0].length >= 2 && wide >= data.length * 0.8;
}
