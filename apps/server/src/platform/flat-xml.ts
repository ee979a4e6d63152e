// One child element: <Name>text</Name>, <Name><![CDATA[text]]></Name> or <Name/>.
const CHILD = /\s*<([A-Za-z_][\w.-]*)\s*(?:\/>|>(?:\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*|([^<]*))<\/\1\s*>)/y;
// Applied to trimmed input so no two whitespace runs sit side by side (no quadratic backtracking).
const ENVELOPE = /^(?:<\?xml[^?]*\?>\s*)?<xml>([\s\S]*)<\/xml>$/;

/**
 * The XML WeChat and WeCom push to callbacks: one <xml> element holding a flat list of children,
 * each text or CDATA. Returns null for anything else, including any document with a DOCTYPE or
 * ENTITY declaration (XXE, entity bombs) and any repeated element (a crafted body could otherwise
 * pick which value we read). Callers bound the input's size before calling.
 */
export function readFlatXml(xml: string): Map<string, string> | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  const body = ENVELOPE.exec(xml.trim())?.[1];
  if (body === undefined) return null;

  const fields = new Map<string, string>();
  const child = new RegExp(CHILD.source, CHILD.flags);
  const more = /\S/g;
  let at = 0;
  for (;;) {
    more.lastIndex = at;
    if (!more.test(body)) return fields;
    child.lastIndex = at;
    const match = child.exec(body);
    if (!match) return null;
    const [, name, cdata, text] = match;
    if (fields.has(name)) return null;
    fields.set(name, cdata ?? decodeEntities((text ?? '').trim()));
    at = child.lastIndex;
  }
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref] ?? whole;
    const codePoint = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
  });
}
