import { overlapTail } from './overlap.ts';
import type { ChunkUnit } from './units.ts';

export interface PackOptions {
  size: number;
  overlap: number;
}

interface OpenChunk {
  path: string[];
  body: string;
  last: ChunkUnit | null;
}

// A heading opens a new chunk unless it and a fair start of its section still fit.
const SECTION_START_SHARE = 0.25;
const PATH_SEPARATOR = ' > ';

/**
 * Greedily pack units into chunk texts of at most `size` characters (not counting the heading-path
 * line). Units are never cut here; rows longer than `size` become chunks of their own.
 */
export function packUnits(units: ChunkUnit[], { size, overlap }: PackOptions): string[] {
  const chunks: string[] = [];
  let current: OpenChunk = { path: [], body: '', last: null };

  const emit = () => {
    const body = current.body.trim();
    if (body !== '') {
      const prefix = current.path.length > 0 ? `${current.path.join(PATH_SEPARATOR)}\n` : '';
      chunks.push(prefix + body);
    }
  };

  const startWith = (unit: ChunkUnit) => {
    const previous = current;
    emit();
    // Overlap only continues running text; a heading or table row starts clean.
    const carry =
      unit.kind === 'text' && previous.last?.kind === 'text'
        ? overlapTail(previous.body.trim(), Math.min(overlap, size - unit.text.length - 1))
        : '';
    const glue = carry === '' ? '' : unit.continues ? '' : '\n';
    current = { path: unit.path, body: carry + glue + unit.text, last: unit };
  };

  for (const [index, unit] of units.entries()) {
    if (current.last === null) {
      startWith(unit);
      continue;
    }
    const glue = unit.continues && current.last.kind === 'text' ? '' : '\n';
    const needed = current.body.length + glue.length + unit.text.length;
    const next = units[index + 1];
    const sectionStart = next && next.kind !== 'heading' ? Math.min(next.text.length, size * SECTION_START_SHARE) : 0;
    const headingCrowded = unit.kind === 'heading' && needed + 1 + sectionStart > size;
    if (needed > size || headingCrowded) {
      startWith(unit);
      continue;
    }
    current.body += glue + unit.text;
    current.last = unit;
  }
  emit();
  return chunks;
}
