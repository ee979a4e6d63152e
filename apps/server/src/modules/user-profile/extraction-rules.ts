import { PROFILE_LIMITS, type ProfileFieldType } from '@athena/contract';
import { type CanonicalValue, checkValue } from './value-rules.ts';

/** What the extraction needs of a field. */
export interface ExtractField {
  id: string;
  name: string;
  type: ProfileFieldType;
  options: string[];
  description: string;
  /** Whether the AI may replace a value a person set. */
  aiOverwrite: boolean;
}

/** How one extraction went (the contract's `profileExtractionSchema`, before presenting). */
export interface ExtractionOutcome {
  status: 'ok' | 'failed' | 'unchanged';
  conversationId: number | null;
  messageId: number | null;
  changed: number;
  unchanged: number;
  skipped: number;
  kept: number;
  reason: string | null;
}

type JsonSchema = Record<string, unknown>;

/**
 * What each type's property looks like to the model; null means "the conversation does not say".
 * Only the subset every schema-enforcing vendor accepts in strict mode: no length or pattern
 * keywords (OpenAI's strict mode refuses some of them); the value rules check those on our side.
 */
function propertyOf(field: ExtractField): JsonSchema {
  const hint = field.type === 'date' ? 'A date as YYYY-MM-DD.' : '';
  const text = [field.description, hint].filter(Boolean).join(' ');
  const description = text ? { description: text } : {};
  switch (field.type) {
    case 'number':
      return { type: ['number', 'null'], ...description };
    case 'select':
      return { type: ['string', 'null'], enum: [...field.options, null], ...description };
    default:
      return { type: ['string', 'null'], ...description };
  }
}

/**
 * The JSON schema of the answer: one property per field, named by the field's name (unique in the
 * scene). Strict structured output needs every property listed as required, so "optional" is
 * spelled as a null value; a missing property is read the same way.
 */
export function extractionSchema(fields: ExtractField[]) {
  const properties: JsonSchema = {};
  for (const field of fields) properties[field.name] = propertyOf(field);
  return {
    type: 'object',
    properties,
    required: fields.map((field) => field.name),
    additionalProperties: false,
  };
}

/** One value the model gave, checked against its field. */
export type Reading =
  | { kind: 'value'; field: ExtractField; value: CanonicalValue }
  | { kind: 'skipped'; name: string; why: string };

export type Parsed = { ok: true; readings: Reading[] } | { ok: false; reason: string };

/** A model may wrap its JSON in a Markdown fence even when asked not to. */
const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

/** The answer's text of a field's value, or why it cannot be one (anything but a string or, for numbers, a number). */
function textOf(field: ExtractField, raw: unknown): string | { why: string } {
  if (typeof raw === 'string') {
    if (field.type === 'text' && raw.trim().length > PROFILE_LIMITS.textValue) return { why: 'too long' };
    return raw;
  }
  if (typeof raw === 'number' && field.type === 'number' && Number.isFinite(raw)) return String(raw);
  return { why: `not ${field.type === 'number' ? 'a number' : 'a string'}` };
}

/**
 * The model's answer read with the fields' own rules (value-rules.ts), never trusting the schema
 * was followed: invalid JSON or no object fails the whole answer; a value that does not fit its
 * field, or a name no field of the extraction has, is skipped with its reason. Null, missing and
 * empty values are no reading at all: the AI fills and updates values, it never empties them.
 */
export function readAnswer(fields: ExtractField[], content: string): Parsed {
  const text = content.trim();
  let answer: unknown;
  try {
    answer = JSON.parse(FENCE.exec(text)?.[1] ?? text);
  } catch {
    return { ok: false, reason: 'the model did not answer with JSON' };
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return { ok: false, reason: 'the model did not answer with a JSON object' };
  }
  const byName = new Map(fields.map((field) => [field.name, field]));
  const readings: Reading[] = [];
  for (const [name, raw] of Object.entries(answer)) {
    const field = byName.get(name);
    if (!field) {
      readings.push({ kind: 'skipped', name: name.slice(0, 30), why: 'no such field' });
      continue;
    }
    if (raw === null || raw === undefined) continue;
    const input = textOf(field, raw);
    if (typeof input !== 'string') {
      readings.push({ kind: 'skipped', name, why: input.why });
      continue;
    }
    const checked = checkValue(field, input);
    if (checked.kind === 'empty') continue;
    if (checked.kind === 'invalid') {
      const why = { number: 'not a number', date: 'not a date', select: 'not an option' }[checked.expected];
      readings.push({ kind: 'skipped', name, why });
      continue;
    }
    readings.push({ kind: 'value', field, value: checked.value });
  }
  return { ok: true, readings };
}

/** The skipped values as the extraction's record says them, bounded. */
export function skippedReason(readings: Reading[]) {
  const skipped = readings.flatMap((reading) =>
    reading.kind === 'skipped' ? [`${reading.name}: ${reading.why}`] : [],
  );
  if (skipped.length === 0) return null;
  return `skipped ${skipped.slice(0, 20).join('; ')}${skipped.length > 20 ? '; …' : ''}`.slice(0, 1000);
}
