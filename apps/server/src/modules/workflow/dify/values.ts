// Readers for values of a parsed DSL file. The file is anyone's YAML, so no field is trusted to
// have the type Dify would give it: each reader falls back instead of throwing.

export type Rec = Record<string, unknown>;

export function rec(value: unknown): Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Rec) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Text of a scalar (numbers and booleans as written); anything else is empty. */
export function str(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fallback;
}

export function num(value: unknown): number | null {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : null;
}

export function bool(value: unknown, fallback = false): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** At most `max` characters, cut on a code point so no half of a surrogate pair is left. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * The same tree with every string (keys too) storable: no NUL, no lone surrogate. YAML can write
 * both as escapes, and neither fits a text column or jsonb.
 */
export function storable(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object') {
    const out: Rec = {};
    for (const [key, item] of Object.entries(value)) {
      // Assigning it would set the object's prototype rather than a field.
      if (key !== '__proto__') out[cleanText(key)] = storable(item);
    }
    return out;
  }
  return value;
}

function cleanText(text: string): string {
  const wellFormed = (text as string & { toWellFormed(): string }).toWellFormed();
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '') : wellFormed;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A value as text for a field that holds text (a constant, an initial value). */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
