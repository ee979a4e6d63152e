/**
 * The knowledge engine: what a file is, its text and structure, its segments, and the text the
 * full-text index stores and queries with. Framework-free; the server's knowledge module stores
 * what these functions return.
 */
export {
  AUTO_CHUNK_OVERLAP,
  AUTO_CHUNK_SIZE,
  type Chunker,
  chunkDocument,
  createChunker,
} from './chunk/chunk-document.ts';
export { ZIP_LIMITS, type ZipLimits } from './parse/bounded-zip.ts';
export { hasReadableText, noReadableText, parseDocument } from './parse/parse-document.ts';
export { queryTermsOf } from './search/query-terms.ts';
export { searchTextOf } from './search/search-text.ts';
export { sniffFileKind } from './sniff/sniff-file-kind.ts';
export { countTokens } from './text/count-tokens.ts';
export { decodeText } from './text/decode-text.ts';
export * from './types.ts';
