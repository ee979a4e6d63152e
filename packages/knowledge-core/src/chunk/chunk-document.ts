import { countTokens } from '../text/count-tokens.ts';
import type { Block, Chunk, ChunkingOptions, ParsedDocument, TableModeOptions } from '../types.ts';
import { qaChunks } from './chunk-table.ts';
import { createPacker } from './pack-units.ts';
import { unescapeSeparator } from './separators.ts';
import { unitBuilder } from './units.ts';

export const AUTO_CHUNK_SIZE = 500;
export const AUTO_CHUNK_OVERLAP = 50;

interface Settings {
  size: number;
  overlap: number;
  separators: string[];
}

function settingsOf(chunking: ChunkingOptions): Settings {
  if (chunking.mode === 'auto') return { size: AUTO_CHUNK_SIZE, overlap: AUTO_CHUNK_OVERLAP, separators: [] };
  const size = Math.max(1, Math.floor(chunking.size));
  // The contract already requires overlap < size / 2; clamp anyway so bad input cannot loop or repeat.
  const overlap = Math.min(Math.max(0, Math.floor(chunking.overlap)), Math.floor((size - 1) / 2));
  const separators = chunking.separators.map(unescapeSeparator).filter((separator) => separator !== '');
  return { size, overlap, separators };
}

function contentChunk(content: string): Chunk {
  return { question: '', answer: '', content, tokens: countTokens(content) };
}

export interface Chunker {
  /** Takes the next blocks in reading order; returns the chunks they completed. */
  add(blocks: Block[]): Chunk[];
  /** Returns the chunks still open. */
  finish(): Chunk[];
}

function blockChunker({ size, overlap, separators }: Settings): Chunker {
  const toUnits = unitBuilder(size, separators);
  const packer = createPacker({ size, overlap });
  return {
    add: (blocks) => blocks.flatMap((block) => toUnits(block).flatMap((unit) => packer.push(unit))).map(contentChunk),
    finish: () => packer.finish().map(contentChunk),
  };
}

/**
 * The streaming form of chunkDocument for documents without a table (a PDF fed page by page as it
 * is parsed): fed the same blocks, it returns the same chunks in the same order.
 */
export function createChunker(chunking: ChunkingOptions): Chunker {
  return blockChunker(settingsOf(chunking));
}

/**
 * Cut a parsed document into segments. Tables: `qa` gives one question/answer segment per row;
 * `row` (or no table mode) packs whole rows, never overlapping. Other documents: headings,
 * paragraphs and sentences are packed up to the size with overlap; tableMode is ignored.
 */
export function chunkDocument(
  doc: ParsedDocument,
  chunking: ChunkingOptions,
  tableMode: TableModeOptions | null,
): Chunk[] {
  const settings = settingsOf(chunking);
  if (doc.table && tableMode?.mode === 'qa') return qaChunks(doc.table, tableMode);
  const chunker = blockChunker(doc.table ? { ...settings, overlap: 0 } : settings);
  return [...chunker.add(doc.blocks), ...chunker.finish()];
}
