const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The markdown renderer's `urlTransform`: model output is untrusted, so a link or image keeps its
 * URL only when it is absolute http(s) or mailto. `javascript:`, `data:`, `vbscript:`, relative
 * paths (which would point into the app) and anything unparsable are dropped (undefined removes the
 * attribute). The URL parser strips the tabs and newlines used to disguise a scheme.
 */
export function safeUrl(url: string): string | undefined {
  const value = url.trim();
  if (!value) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return undefined;
  }
  return ALLOWED_PROTOCOLS.has(parsed.protocol) ? parsed.href : undefined;
}
