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

export interface Packer {
  /** Takes the next unit; returns the chunks it completed (a unit is placed once the next is known). */
  push(unit: ChunkUnit): string[];
  /** Places the last unit and returns what is left. */
  finish(): string[];
}

/**
 * Greedily pack units into chunk texts of at most `size` characters (not counting the heading-path
 * line). Units are never cut here; rows longer than `size` become chunks of their own. Fed unit by
 * unit, so a long document is packed as it is parsed: where a unit goes depends on the unit after
 * it (a heading keeps its section's start), so each unit is placed when the next one arrives.
 */
export function createPacker({ size, overlap }: PackOptions): Packer {
  let chunks: string[] = [];
  let current: OpenChunk = { path: [], body: '', last: null };
  let pending: ChunkUnit | null = null;

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

  const place = (unit: ChunkUnit, next: ChunkUnit | undefined) => {
    if (current.last === null) return startWith(unit);
    const glue = unit.continues && current.last.kind === 'text' ? '' : '\n';
    const needed = current.body.length + glue.length + unit.text.length;
    const sectionStart = next && next.kind !== 'heading' ? Math.min(next.text.length, size * SECTION_START_SHARE) : 0;
    const headingCrowded = unit.kind === 'heading' && needed + 1 + sectionStart > size;
    if (needed > size || headingCrowded) return startWith(unit);
    current.body += glue + unit.text;
    current.last = unit;
  };

  const drain = () => {
    const done = chunks;
    chunks = [];
    return done;
  };

  return {
    push(unit) {
      if (pending) place(pending, unit);
      pending = unit;
      return drain();
    },
    finish() {
      if (pending) place(pending, undefined);
      pending = null;
      emit();
      current = { path: [], body: '', last: null };
      return drain();
    },
  };
}
