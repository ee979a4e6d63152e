import fc from 'fast-check';
import type { z } from 'zod';

/**
 * A piece of JSON text sent as it is: what `JSON.stringify` cannot write (1e999 parses to
 * Infinity, NaN is no JSON at all) or would write differently (an own `__proto__` key).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The body as a client would send it, with RawJson pieces spliced in. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : toJsonText(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface ArbitraryOptions {
  /**
   * Valid values for fields by name, used instead of what the schema alone would give (ids of
   * objects that exist, a URL that answers, a phone that passes): without them almost no request
   * would get past validation into a service.
   */
  fields?: Record<string, fc.Arbitrary<unknown>>;
  /** Weight of a hostile value against 10 for a valid one, at every node; 0 for valid values only. */
  hostility?: number;
}

// Zod keeps a schema's definition in `_zod.def`; only the parts this walker reads are typed here.
interface Check {
  check: string;
  format?: string;
  pattern?: RegExp | string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
}
interface Def {
  type: string;
  checks?: { _zod: { def: Check } }[];
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (schema: z.ZodType) => (defOf(schema).checks ?? []).map((check) => check._zod.def);
/** Whether an object may leave the key out (optional, default, nullish, …). */
const mayBeAbsent = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';

const MEGABYTE = 1024 * 1024;

/** Strings that have hurt servers: what PostgreSQL refuses, sizes, encodings, injection shapes. */
const hostileString = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      '\u0000',
      '\uD800',
      'x\uDC00y',
      '\uDBFF\uDBFF',
      '',
      '   ',
      '\u200B\u202E\uFEFF',
      "' OR 1=1 --",
      '%00%27',
      '../../../etc/passwd',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, not a template
      '${jndi:ldap://x}',
      '<script>alert(1)</script>',
      '👩‍👩‍👧‍👦'.repeat(50),
      '00000000-0000-0000-0000-000000000000',
      '-1',
      'null',
      'NaN',
    ),
  },
  // Rare, or nearly every body would carry one and stop at the size limit.
  { weight: 1, arbitrary: fc.constant('x'.repeat(100_000)) },
  // A whole megabyte: over the JSON body limit once quoted, so the limit itself is exercised.
  { weight: 1, arbitrary: fc.constant('y'.repeat(MEGABYTE)) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    -0.000001,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    -1e308,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
  ),
  fc.constantFrom(
    new RawJson('1e999'),
    new RawJson('-1e999'),
    new RawJson('1e-400'),
    new RawJson('123456789012345678901234567890'),
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Nested deeper than any parser or validator should walk by recursion. */
const deep = (depth: number) =>
  fc.constantFrom(
    new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

const hostileStructure = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { id: 'x' }, ['a', 1]),
  fc.constantFrom(
    new RawJson('{"__proto__":{"polluted":true,"role":1}}'),
    new RawJson('{"constructor":{"prototype":{"polluted":true}}}'),
    new RawJson('{"a":1,"a":2}'),
  ),
  deep(64),
  deep(5_000),
);

/** Any hostile value, of any type: a wrong type is hostile wherever it lands. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: hostileStructure, weight: 3 },
);

/** Keys no schema declares, added to objects now and then. */
const extraKeys = fc.dictionary(
  fc.constantFrom('unknown', 'constructor', 'toString', 'space_id', 'creator_id', 'role', 'is_admin', '$where'),
  hostileValue,
  { maxKeys: 2 },
);

function stringArbitrary(schema: z.ZodType): fc.Arbitrary<string> {
  const def = defOf(schema);
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  let pattern: RegExp | null = null;
  let format = def.format ?? null;
  for (const check of checksOf(schema)) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum ?? 0);
    if (check.check === 'max_length') max = Math.min(max, check.maximum ?? max);
    if (check.check === 'string_format' && check.format === 'regex' && check.pattern) {
      pattern = typeof check.pattern === 'string' ? new RegExp(check.pattern) : check.pattern;
    } else if (check.check === 'string_format') format = check.format ?? format;
  }
  if (format === 'uuid') return fc.uuid();
  if (format === 'datetime') {
    const [min, max] = [new Date('2000-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z')];
    return fc.date({ min, max, noInvalidDate: true }).map((date) => date.toISOString());
  }
  if (format === 'date') {
    const day = 86_400_000;
    return fc.integer({ min: 0, max: 365 }).map((days) => new Date(Date.now() + days * day).toISOString().slice(0, 10));
  }
  if (format && format !== 'regex') throw new Error(`zodArbitrary: no arbitrary for the string format "${format}"`);
  if (pattern) return fc.stringMatching(pattern).filter((value) => value.length >= min && value.length <= max);
  // Long enough to be real, short enough to keep a run fast; the hostile side sends the long ones.
  return fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, Math.min(max, 60)) });
}

function numberArbitrary(schema: z.ZodType): fc.Arbitrary<number> {
  let min: number | undefined;
  let max: number | undefined;
  let integer = false;
  for (const check of checksOf(schema)) {
    if (check.check === 'number_format') integer = check.format !== 'float32' && check.format !== 'float64';
    if (check.check === 'greater_than') min = (check.value ?? 0) + (check.inclusive ? 0 : integer ? 1 : 1e-9);
    if (check.check === 'less_than') max = (check.value ?? 0) - (check.inclusive ? 0 : integer ? 1 : 1e-9);
  }
  if (integer) return fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 });
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

function validArbitrary(schema: z.ZodType, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const walk = (inner: z.ZodType | undefined) => {
    if (!inner) throw new Error(`zodArbitrary: a ${def.type} without its inner schema`);
    return zodArbitrary(inner, options);
  };
  switch (def.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'optional':
      return fc.option(walk(def.innerType), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(walk(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return walk(def.innerType);
    case 'pipe':
      // What a client sends is the input side; the output side (a transform) is the server's.
      return walk(def.in);
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => zodArbitrary(option, options)));
    // Free-form JSON (a workflow node's JSON schema or default outputs): small values of any shape.
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'record':
      return fc.dictionary(walk(def.keyType) as fc.Arbitrary<string>, walk(def.valueType), { maxKeys: 3 });
    case 'array': {
      let minLength = 0;
      let maxLength = 4;
      for (const check of checksOf(schema)) {
        if (check.check === 'min_length') minLength = check.minimum ?? 0;
        if (check.check === 'max_length') maxLength = Math.min(check.maximum ?? maxLength, Math.max(minLength, 4));
      }
      return fc.array(walk(def.element), { minLength, maxLength });
    }
    case 'object': {
      const shape = def.shape ?? {};
      const model = Object.fromEntries(
        Object.entries(shape).map(([key, field]) => {
          const given = options.fields?.[key];
          return [key, given ? withHostility(given, options) : zodArbitrary(field, options)];
        }),
      );
      const requiredKeys = Object.keys(shape).filter((key) => !mayBeAbsent(shape[key]));
      const record = fc.record(model, { requiredKeys });
      if (!options.hostility) return record;
      return fc
        .tuple(record, fc.option(extraKeys, { freq: 5 }))
        .map(([value, extra]) => (extra ? { ...extra, ...value } : value));
    }
    default:
      // A schema kind this walker has never seen must fail loudly, never be skipped.
      throw new Error(`zodArbitrary: no arbitrary for zod type "${def.type}"; teach contract-tests/zod-arbitrary.ts`);
  }
}

const withHostility = (valid: fc.Arbitrary<unknown>, options: ArbitraryOptions) =>
  options.hostility
    ? fc.oneof({ arbitrary: valid, weight: 10 }, { arbitrary: hostileValue, weight: options.hostility })
    : valid;

/**
 * Values for a zod request schema: valid ones (what the schema accepts, as far as its checks say;
 * refinements are met through `fields`), and with `hostility` also hostile ones at any depth.
 */
export function zodArbitrary(schema: z.ZodType, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return withHostility(validArbitrary(schema, options), options);
}
