export interface TextPart {
  text: string;
  hit: boolean;
}

/**
 * Splits text around every occurrence of the keyword (ignoring case), so the match can be marked.
 * The server matches the keyword as typed inside the text (docs/chat-history.md), which this mirrors.
 */
export function splitHighlight(text: string, keyword: string): TextPart[] {
  const needle = keyword.trim().toLowerCase();
  if (!needle || !text) return text ? [{ text, hit: false }] : [];
  const haystack = text.toLowerCase();
  const parts: TextPart[] = [];
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), hit: false });
    parts.push({ text: text.slice(at, at + needle.length), hit: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), hit: false });
  return parts;
}
