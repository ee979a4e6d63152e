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

/**
 * A converter fed blocks in reading order, one call per block; it remembers the open headings, so
 * a document can be converted as its pages arrive.
 */
export function unitBuilder(size: number, separators: string[]): (block: Block) => ChunkUnit[] {
  const open: OpenHeading[] = [];
  const path = () => open.map((heading) => heading.text);
  return (block) => {
    if (block.type === 'page_break') return [];
    const text = block.text.trim();
    if (text === '') return [];
    if (block.type === 'table_row') return [{ kind: 'row', text, continues: false, path: path() }];
    if (block.type === 'heading' && text.length <= size / 2) {
      while (open.length > 0 && open[open.length - 1].level >= block.level) open.pop();
      const unit: ChunkUnit = { kind: 'heading', text, continues: false, path: path() };
      open.push({ level: block.level, text });
      return [unit];
    }
    // Paragraphs, and headings too long to be titles, are body text.
    const at = path();
    return splitLongText(text, size, separators).map((slice, index) => ({
      kind: 'text',
      text: slice,
      continues: index > 0,
      path: at,
    }));
  };
}
