/** A byte range to serve, `null` for the whole file, or 'unsatisfiable' (416). */
export type RangeChoice = { start: number; end: number } | null | 'unsatisfiable';

/**
 * One `bytes=` range (RFC 9110 §14): `a-b`, `a-` or the suffix `-n`. Several ranges are served as
 * the whole file (a player never asks for them; multipart answers are not worth their weight).
 */
export function parseRange(header: string | undefined, size: number): RangeChoice {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return header.trim().startsWith('bytes=') && header.includes(',') ? null : 'unsatisfiable';
  const [, first, last] = match;
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** An attachment/inline disposition that survives any name: ASCII fallback plus RFC 8187 UTF-8. */
export function dispositionOf(kind: 'inline' | 'attachment', name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
