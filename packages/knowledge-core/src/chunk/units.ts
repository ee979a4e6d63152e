import type { Block } from '../types.ts';
import { splitLongText } from './split-long-text.ts';

/**
 * Blocks → the units the chunker packs: headings, text slices and table rows, each carrying the
 * heading path in force so a chunk that starts mid-section can say where it is.
 */
export interface ChunkUnit {
  kind: 'heading' | 'text' | 'row';
  text: string;
  /** A later slice of the same paragraph: joined to the previous slice with nothing in between. */
  continues: boolean;
  /** Titles of the enclosing headings, outermost first (for a heading: its ancestors). */
  path: string[];
}

interface OpenHeading {
  level: number;
  text: string;
}

export function blocksToUnits(blocks: Block[], size: number, separators: string[]): ChunkUnit[] {
  const units: ChunkUnit[] = [];
  const open: OpenHeading[] = [];
  const path = () => open.map((heading) => heading.text);
  const addText = (text: string) => {
    splitLongText(text, size, separators).forEach((slice, index) => {
      units.push({ kind: 'text', text: slice, continues: index > 0, path: path() });
    });
  };
  for (const block of blocks) {
    if (block.type === 'page_break') continue;
    const text = block.text.trim();
    if (text === '') continue;
    if (block.type === 'table_row') {
      units.push({ kind: 'row', text, continues: false, path: path() });
    } else if (block.type === 'heading' && text.length <= size / 2) {
      while (open.length > 0 && open[open.length - 1].level >= block.level) open.pop();
      units.push({ kind: 'heading', text, continues: false, path: path() });
      open.push({ level: block.level, text });
    } else {
      // Paragraphs, and headings too long to be titles, are body text.
      addText(text);
    }
  }
  return units;
}
