import {
  agentStreams,
  ERRORS,
  openAIChunkSchema,
  openAICompletionSchema,
  openAIErrorSchema,
  type StreamDescriptor,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, parseSse, stream } from '../modules/agent/agent-test-helpers.ts';
import { buildTeam, type TeamFixture } from '../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { type ContractRoute, contractRoutes, OUTSIDE_THE_CONTRACT } from './contract-routes.ts';
import { idSlotsOf, requestSchemasOf, slotValue } from './id-slots.ts';
import { uploadBytes, validFields } from './request-values.ts';
import { SECRET, type SeededObjects, type SeededTeam, seedTeam } from './seed-team.ts';
import { type Answer, type Attempt, send } from './send.ts';
import { hostileValue, RawJson, zodArbitrary } from './zod-arbitrary.ts';

// A fixed seed and a modest number of runs keep CI fast and every failure replayable; set
// FUZZ_RUNS=500 (and another FUZZ_SEED) to search deeper by hand.
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20_250_612);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const ADMIN_PHONE = '13800000602';

// FUZZ_STATS=1 prints, per route, how often each code came back: a route that never answers 0 is
// fuzzed only at its gate, and wants better values in validFields.
const STATS = Boolean(process.env.FUZZ_STATS);
const codeCounts = new Map<string, Map<string, number>>();
function count(path: string, answer: Answer) {
  const code = String((answer.json as { code?: unknown } | undefined)?.code ?? answer.contentType.split(';')[0]);
  const counts = codeCounts.get(path) ?? new Map<string, number>();
  counts.set(code, (counts.get(code) ?? 0) + 1);
  codeCounts.set(path, counts);
}

const KNOWN_CODES = new Set<number>([0, ...Object.values(ERRORS).map((error) => error.code)]);
const SYSTEM_ERROR = ERRORS.SYSTEM_ERROR.code;

/** Destructive calls go last, so the admin and the seeded objects live through the others. */
// Turning a share link on again gives it a new code, so the share pages go before it.
const LAST = /\/(delete|revoke|revoke_others|remove|transfer|dissolve|cancel|unbind|leave|logout|agent\/share)$/;
const order = (route: ContractRoute) =>
  (route.kind === 'stream' ? 0 : LAST.test(route.path) ? 2 : 1) +
  (route.path.endsWith('/leave') ? 1 : 0) +
  (route.path.endsWith('/logout') ? 2 : 0);
// Among the destructive ones the longer paths (a segment, a unit) go before their parent (a base).
const routes = contractRoutes().sort(
  (a, b) => order(a) - order(b) || (order(a) === 2 ? b.path.length - a.path.length : 0) || a.path.localeCompare(b.path),
);

/** Each route's own seed, so a new route never changes what the others are sent. */
const seedOf = (path: string) => {
  let hash = BASE_SEED | 0;
  for (const char of path) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
};

const truncate = (text: string, length = 600) =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;

/** Whatever the fuzzer made, as a header value a client can send (at most 8 KB, as proxies allow). */
function headerValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  let safe: string;
  try {
    safe = encodeURIComponent(text);
  } catch {
    safe = text.replace(/[^\x20-\x7e]/g, '?');
  }
  return safe.slice(0, 8192);
}

/** The answer of a stream that ran: only the events its descriptor names, ending as it says. */
function checkStream(descriptor: StreamDescriptor, text: string) {
  if (descriptor.framing === 'event') {
    const events = parseSse(descriptor, text);
    expect(events.at(-1)?.event, 'the stream ends with its end event').toBe(descriptor.end);
    return;
  }
  const lines = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
  const last = lines.at(-1);
  for (const line of lines.slice(0, -1)) openAIChunkSchema.parse(JSON.parse(line));
  if (last === descriptor.done) return;
  openAIErrorSchema.parse(JSON.parse(last ?? 'null'));
}

/** What every answer must be: no 5xx, no 50000, the envelope with a catalogue code (or the route's own format). */
function checkAnswer(route: ContractRoute, answer: Answer) {
  const shown = `HTTP ${answer.status} ${answer.contentType}: ${truncate(answer.text, 300)}`;
  expect(answer.status, shown).toBeLessThan(500);
  if (answer.contentType.startsWith('text/event-stream') && route.kind === 'stream') {
    expect(answer.status, shown).toBe(200);
    checkStream(route.descriptor, answer.text);
    return;
  }
  if (route.kind === 'stream' && route.auth === 'api_key') {
    // OpenAI's own shapes, which its client libraries read, instead of the envelope.
    const parsed = openAIErrorSchema.or(openAICompletionSchema).safeParse(answer.json);
    expect(parsed.success, shown).toBe(true);
    return;
  }
  if (route.kind === 'file' && answer.status === 200 && !answer.contentType.startsWith('application/json')) return;
  expect(answer.contentType, shown).toMatch(/^application\/json/);
  const envelope = answer.json as { code?: unknown; msg?: unknown };
  expect(typeof envelope?.code, shown).toBe('number');
  expect(typeof envelope?.msg, shown).toBe('string');
  expect(envelope.code, shown).not.toBe(SYSTEM_ERROR);
  expect(KNOWN_CODES.has(envelope.code as number), `a code outside the catalogue: ${shown}`).toBe(true);
}

/**
 * Generated from the contract: every route gets bodies (or an upload's query, headers and bytes)
 * made from its own zod schema by the walker in zod-arbitrary.ts, mostly valid, with team A's
 * real ids in its id slots so requests reach the services, and hostile values mixed in at every
 * depth. Sent through the real app as team A's admin (also a platform operator, so operator code
 * runs), signed out, or with hostile headers. Every answer must be a catalogue code in the
 * envelope (or the route's own format), never a 5xx; every stream must end.
 */
describe('every route of the contract, fuzzed', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let seeded: SeededTeam;
  /** Team A's objects, with a conversation of the admin's own (the one who sends). */
  let objects: SeededObjects;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 0 });
    t = await createTestApp({
      jobs: true,
      env: {
        ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
        MODEL_TEST_TIMEOUT_MS: '3000',
        OPERATOR_PHONES: ADMIN_PHONE,
        SMS_DAILY_LIMIT_PER_IP: '100000',
        // Every stream must end within the harness's wait; the live one ends after this.
        CHAT_LIVE_SECONDS: '1',
      },
    });
    team = await buildTeam(t, { phonePrefix: '138000006', name: `${SECRET} team` });
    seeded = await seedTeam(t, team, fake);
    const chat = await stream(
      t,
      agentStreams.chat,
      { agent_id: seeded.objects.agent, message: 'Hi' },
      team.as(team.admin),
    );
    const conversation = dataOf(chat.events, 'start')?.conversation_id;
    if (!conversation) throw new Error('the admin’s chat did not start');
    objects = { ...seeded.objects, conversation };
  }, 120_000);
  afterAll(async () => {
    if (STATS) for (const [path, counts] of codeCounts) console.log(path, Object.fromEntries(counts));
    await t?.close();
    await fake?.close();
  });

  it('covers every route the server lists, and the server serves every route of the contract', async () => {
    const served = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const known = new Set(routes.map((route) => route.path));
    const missing = Object.keys(served.paths).filter((path) => !known.has(path) && !(path in OUTSIDE_THE_CONTRACT));
    expect(missing, 'routes the server has but the contract does not describe').toEqual([]);
    const unserved = routes.filter((route) => !t.app.hasRoute({ method: 'POST', url: route.path }));
    expect(unserved.map((route) => route.path)).toEqual([]);
  });

  /** Team A's real objects in the route's id slots, and values its refinements accept. */
  function validFieldsFor(route: ContractRoute): Record<string, fc.Arbitrary<unknown>> {
    const fields: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, value] of Object.entries(validFields(fake.url))) fields[key] = fc.constant(value);
    for (const schema of requestSchemasOf(route)) {
      for (const key of idSlotsOf(schema)) {
        const value = slotValue(objects, route.path, key);
        if (value !== undefined) fields[key] = fc.constant(value);
      }
    }
    return fields;
  }

  /** The same, and sometimes a string of the schema's own instead, so the slot's checks are fuzzed too. */
  const mixedFields = (route: ContractRoute) =>
    Object.fromEntries(
      Object.entries(validFieldsFor(route)).map(([key, valid]) => [
        key,
        fc.oneof({ arbitrary: valid, weight: 4 }, fc.string()),
      ]),
    );

  function headersArbitrary(route: ContractRoute): fc.Arbitrary<Record<string, string>> {
    const admin: Record<string, string> =
      route.auth === 'api_key'
        ? { authorization: `Bearer ${objects.apiKey}` }
        : { token: team.admin, 'space-id': team.teamId };
    const junk = fc.record(
      { token: hostileValue.map(headerValue), 'space-id': hostileValue.map(headerValue), language: fc.string() },
      { requiredKeys: [] },
    );
    const signedOut: Record<string, string> = {};
    return fc.oneof(
      { arbitrary: fc.constant(admin), weight: 6 },
      { arbitrary: fc.constant(signedOut), weight: 2 },
      {
        arbitrary: fc.constantFrom<Record<string, string>>({ token: team.admin }, { ...admin, language: 'en' }),
        weight: 1,
      },
      { arbitrary: junk.map((extra): Record<string, string> => ({ ...admin, ...extra })), weight: 1 },
    );
  }

  function attemptArbitrary(route: ContractRoute): fc.Arbitrary<Attempt> {
    const options = { fields: mixedFields(route), hostility: 1 };
    const headers = headersArbitrary(route);
    if (route.kind === 'upload') {
      const { descriptor } = route;
      const oversized = Buffer.alloc(descriptor.maxBytes + 1, 0x41);
      const bytes = fc.oneof(
        { arbitrary: fc.constant(uploadBytes(route)), weight: 5 },
        { arbitrary: fc.uint8Array({ maxLength: 2048 }).map((array) => Buffer.from(array)), weight: 3 },
        { arbitrary: fc.constantFrom(Buffer.from('%PDF-1.7\n%junk'), Buffer.from('PK\u0003\u0004junk')), weight: 1 },
        { arbitrary: fc.constant(oversized), weight: 1 },
      );
      return fc.record({
        headers: fc.tuple(headers, zodArbitrary(descriptor.headers, options)).map(([base, extra]) => ({
          ...base,
          ...Object.fromEntries(Object.entries((extra ?? {}) as object).map(([k, v]) => [k, headerValue(v)])),
        })),
        query: fc.oneof(
          zodArbitrary(descriptor.query, { fields: validFieldsFor(route) }),
          zodArbitrary(descriptor.query, options),
        ),
        bytes,
        contentType: fc.constantFrom('application/octet-stream', 'image/png', 'text/plain', 'application/json'),
      });
    }
    const wholeBody = fc.oneof(
      hostileValue,
      fc.constantFrom(new RawJson('{'), new RawJson(''), new RawJson('{"a":'), new RawJson('NaN'), undefined),
    );
    // A request is clean (every value valid, so it runs through the service), hostile somewhere
    // inside, or hostile as a whole; a hostile value in every field would only ever test validation.
    const clean = zodArbitrary(route.body, { fields: validFieldsFor(route) });
    return fc.record({
      headers,
      body: fc.oneof(
        { arbitrary: clean, weight: 4 },
        { arbitrary: zodArbitrary(route.body, options), weight: 5 },
        { arbitrary: wholeBody, weight: 1 },
      ),
      contentType: fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 12 },
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'),
      ),
    });
  }

  // What the body parser refuses before any handler runs must still be answered in the route's own
  // format; fixed cases, so no seed has to find them.
  const PARSER_REFUSALS: [string, Attempt['body'], string?][] = [
    ['cut-off JSON', new RawJson('{"a":')],
    ['a constructor.prototype key', new RawJson('{"constructor":{"prototype":{"polluted":true}}}')],
    ['a __proto__ key', new RawJson('{"__proto__":{"polluted":true}}')],
    ['a body over the limit', 'z'.repeat(1_100_000)],
    ['text/plain', 'hello', 'text/plain'],
  ];
  const jsonRoutes = routes.filter((route) => route.kind !== 'upload');
  it.each(jsonRoutes.map((route) => [route.path, route] as const))('%s: parser refusals', async (_path, route) => {
    for (const [what, body, contentType] of PARSER_REFUSALS) {
      const answer = await send(t, route, {
        headers: { token: team.admin, 'space-id': team.teamId },
        body,
        contentType,
      });
      try {
        checkAnswer(route, answer);
      } catch (error) {
        throw new Error(`${route.path} with ${what}: ${(error as Error).message}`);
      }
    }
  });

  it.each(routes.map((route) => [route.path, route] as const))(
    '%s',
    async (path, route) => {
      const seed = seedOf(path);
      await fc.assert(
        fc.asyncProperty(attemptArbitrary(route), async (attempt) => {
          const answer = await send(t, route, attempt, 15_000);
          if (STATS) count(path, answer);
          checkAnswer(route, answer);
        }),
        {
          seed,
          numRuns: RUNS,
          // Shrinking would replay hundreds of requests; the seed and path replay the failure.
          endOnFailure: true,
          reporter: (details) => {
            if (!details.failed) return;
            const example = truncate(fc.stringify(details.counterexample), 1500);
            throw new Error(
              `${path} failed (seed ${seed}, path ${details.counterexamplePath}; replay with FUZZ_SEED=${BASE_SEED} ` +
                `and -t '${path}'): ${String((details.errorInstance as Error | null)?.message)}\nrequest: ${example}`,
            );
          },
        },
      );
    },
    120_000,
  );
});
