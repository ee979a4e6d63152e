/** Segments shown per page on the segment pages. */
export const SEGMENT_PAGE_SIZE = 20;
/** The contract's largest page, used to find a segment's place in few calls. */
const SCAN_PAGE_SIZE = 100;
/** Beyond 100 × 100 segments into one file we stop looking and show the first page. */
const SCAN_MAX_PAGES = 100;

type FetchPage = (page: number, pageSize: number) => Promise<{ items: { id: string }[]; total: number }>;

/**
 * Where a segment sits in a list in file order (0-based), or null when it is not there. The list
 * route has no "find" and positions may have gaps (deleted segments), so it reads the list in the
 * largest pages the contract allows until the id turns up.
 */
export async function locateSegment(fetchPage: FetchPage, segmentId: string): Promise<number | null> {
  for (let page = 1; page <= SCAN_MAX_PAGES; page++) {
    const { items, total } = await fetchPage(page, SCAN_PAGE_SIZE);
    const index = items.findIndex((item) => item.id === segmentId);
    if (index !== -1) return (page - 1) * SCAN_PAGE_SIZE + index;
    if (items.length < SCAN_PAGE_SIZE || page * SCAN_PAGE_SIZE >= total) return null;
  }
  return null;
}

/** The 1-based page a 0-based index is on. */
export const pageOfIndex = (index: number, pageSize = SEGMENT_PAGE_SIZE) => Math.floor(index / pageSize) + 1;

/** A segment's place in its file for people: positions count from 0 in the contract's file order. */
export const positionLabel = (position: number) => `#${position + 1}`;

/**
 * Text cut into plain and matching parts for highlighting a search (case-insensitive). Parts are
 * rendered as text nodes, never as HTML.
 */
export function highlightParts(text: string, keyword: string): { text: string; match: boolean }[] {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return text ? [{ text, match: false }] : [];
  const haystack = text.toLowerCase();
  const parts: { text: string; match: boolean }[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}
