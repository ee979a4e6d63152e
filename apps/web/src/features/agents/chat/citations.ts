import type { Citation } from '@athena/contract';

/** A piece of answer text: plain words, or the [n] marker of a cited source. */
export type CitationPart = { type: 'text'; value: string } | { type: 'cite'; marker: number };

/** [1], [2] and grouped forms such as [1, 2] or [1，2] (models write both). */
const MARKERS = /\[(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\]/g;

/**
 * Cuts answer text at its citation markers. A marker becomes a chip only when the answer has a
 * source with that number (a group only when all its numbers do); anything else stays text, so
 * "[1]" in an answer without sources, or an array literal like [0], reads as written.
 */
export function splitCitations(text: string, known: ReadonlySet<number>): CitationPart[] {
  const parts: CitationPart[] = [];
  let from = 0;
  const pushText = (value: string) => {
    if (!value) return;
    const last = parts.at(-1);
    if (last?.type === 'text') last.value += value;
    else parts.push({ type: 'text', value });
  };
  for (const match of text.matchAll(MARKERS)) {
    const markers = match[1].split(/\s*[,，、]\s*/).map(Number);
    if (!markers.every((marker) => known.has(marker))) continue;
    pushText(text.slice(from, match.index));
    for (const marker of markers) parts.push({ type: 'cite', marker });
    from = match.index + match[0].length;
  }
  pushText(text.slice(from));
  return parts;
}

/** The element name a citation marker becomes in the rendered Markdown. */
export const CITATION_ELEMENT = 'athena-cite';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: Record<string, unknown>;
}

/** Inside these a chip would be wrong (a link in a link) or the marker is code. */
const SKIP = new Set(['link', 'linkReference', 'inlineCode', 'code', 'definition']);

function rewrite(node: MdNode, known: ReadonlySet<number>) {
  if (!node.children || SKIP.has(node.type)) return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type !== 'text' || !child.value) {
      rewrite(child, known);
      next.push(child);
      continue;
    }
    for (const part of splitCitations(child.value, known)) {
      next.push(
        part.type === 'text'
          ? { type: 'text', value: part.value }
          : {
              type: 'citation',
              children: [],
              data: { hName: CITATION_ELEMENT, hProperties: { marker: String(part.marker) } },
            },
      );
    }
  }
  node.children = next;
}

/**
 * A remark plugin: [n] markers of known sources become `athena-cite` elements, which the Markdown
 * renderer maps to chips. Text nodes only, so markers in code stay as they are.
 */
export function remarkCitations(known: ReadonlySet<number>) {
  return () => (tree: MdNode) => rewrite(tree, known);
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The `citations` event's items, read defensively (an item without a marker or a segment cannot
 * be shown) and in marker order, one per marker.
 */
export function toCitations(value: unknown): Citation[] {
  if (!Array.isArray(value)) return [];
  const byMarker = new Map<number, Citation>();
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const raw = item as Record<string, unknown>;
    const marker = num(raw.marker);
    if (!Number.isInteger(marker) || marker < 1 || !str(raw.segment_id) || byMarker.has(marker)) continue;
    byMarker.set(marker, {
      marker,
      knowledge_id: str(raw.knowledge_id),
      unit_id: str(raw.unit_id),
      segment_id: str(raw.segment_id),
      file_name: str(raw.file_name),
      snippet: str(raw.snippet),
      score: num(raw.score),
    });
  }
  return [...byMarker.values()].sort((a, b) => a.marker - b.marker);
}
