import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/http/app-error.ts';
import { createDifyImporter } from './dify-importer.ts';
import { readDifyDsl } from './dsl-reader.ts';
import { looksLikeDifyDsl } from './dsl-sniff.ts';

// Hostile and malformed DSL files: each is refused with its catalogue code, quickly, in the
// import's worker thread, while the server's own thread keeps answering.

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const CONTEXT = { modelKeys: [] };

/** Nine levels of nine aliases each: under 1 KB of text, 9^9 (387 million) strings once expanded. */
const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((name, index) => {
    const previous = 'abcdefgh'[index];
    return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`;
  }),
  'kind: app',
].join('\n');

const withHeader = (header: string) =>
  fixture('dify-loop-break.yml').replace(/^kind: app\nversion: 0\.3\.1\n/m, header);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('reading a DSL file (in the thread)', () => {
  it('refuses a billion laughs by its alias count, in seconds rather than never', () => {
    const started = performance.now();
    expect(() => readDifyDsl(BILLION_LAUGHS)).toThrow(
      expect.objectContaining({
        key: 'WORKFLOW_IMPORT_INVALID',
        params: { detail: expect.stringContaining('aliases') },
      }),
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses malformed YAML with the line, and duplicate keys', () => {
    expect(() => readDifyDsl('kind: app\nversion: 0.1.0\napp: [\n')).toThrow(
      expect.objectContaining({ key: 'WORKFLOW_IMPORT_INVALID', params: { detail: expect.stringMatching(/line \d/) } }),
    );
    expect(() => readDifyDsl('kind: app\nkind: app\n')).toThrow(
      expect.objectContaining({ key: 'WORKFLOW_IMPORT_INVALID' }),
    );
  });

  it('tells Dify YAML from our JSON export', () => {
    expect(looksLikeDifyDsl(fixture('svcvit-payment-demo.yml'))).toBe(true);
    expect(looksLikeDifyDsl('{"format":"athena-workflow","version":1}')).toBe(false);
    expect(looksLikeDifyDsl('hello')).toBe(false);
  });
});

describe('the Dify importer (worker thread)', () => {
  const importer = createDifyImporter({ workers: 1, heapMb: 128, timeoutMs: 20_000 });
  afterAll(() => importer.close());

  it('converts a real file in its thread', async () => {
    const { file, notes } = await importer.convert(fixture('svcvit-json-translate.yml'), CONTEXT);
    expect(file.format).toBe('athena-workflow');
    expect(file.graph.nodes.some((node) => node.type === 'iteration')).toBe(true);
    expect(notes.some((note) => note.key === 'WORKFLOW_IMPORT_NODE_PLACEHOLDER')).toBe(true);
  });

  it('refuses a billion laughs quickly while the server thread keeps its timers on time', async () => {
    let worstLag = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - last - 10);
      last = now;
    }, 10);
    const started = performance.now();
    const error = await refusal(importer.convert(BILLION_LAUGHS, CONTEXT));
    clearInterval(ticker);
    expect(error.key).toBe('WORKFLOW_IMPORT_INVALID');
    expect(performance.now() - started).toBeLessThan(10_000);
    // Parsed on the server's thread, the timers would have stopped for the whole parse.
    expect(worstLag).toBeLessThan(1_000);
  });

  it('refuses a 3 MB file before it reaches a thread', async () => {
    const big = `kind: app\nversion: 0.1.0\napp: {mode: workflow}\nx: "${'a'.repeat(3_000_000)}"\n`;
    const started = performance.now();
    expect((await refusal(importer.convert(big, CONTEXT))).key).toBe('WORKFLOW_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a file of another kind, a chat app, and a file without a graph', async () => {
    const dataset = await refusal(importer.convert(withHeader('kind: dataset\nversion: 0.3.1\n'), CONTEXT));
    expect(dataset).toMatchObject({
      key: 'WORKFLOW_IMPORT_INVALID',
      params: { detail: expect.stringContaining('dataset') },
    });
    const chat = await refusal(
      importer.convert(fixture('dify-loop-break.yml').replace('  mode: workflow', '  mode: agent-chat'), CONTEXT),
    );
    expect(chat).toMatchObject({
      key: 'WORKFLOW_IMPORT_INVALID',
      params: { detail: expect.stringContaining('agent-chat') },
    });
    const empty = await refusal(importer.convert('kind: app\nversion: 0.1.0\napp: {mode: workflow}\n', CONTEXT));
    expect(empty.key).toBe('WORKFLOW_IMPORT_INVALID');
  });

  it('refuses an unknown or missing version', async () => {
    const future = await refusal(importer.convert(withHeader('kind: app\nversion: 1.0.0\n'), CONTEXT));
    expect(future).toMatchObject({ key: 'WORKFLOW_IMPORT_VERSION_UNSUPPORTED', params: { version: '1.0.0' } });
    const none = await refusal(importer.convert(withHeader('kind: app\n'), CONTEXT));
    expect(none.key).toBe('WORKFLOW_IMPORT_INVALID');
  });

  it('refuses malformed YAML, and YAML nested beyond reason before the parser sees it', async () => {
    expect((await refusal(importer.convert('kind: app\n  version: [0.1\n', CONTEXT))).key).toBe(
      'WORKFLOW_IMPORT_INVALID',
    );
    // At ~100 000 levels the YAML parser runs out of memory compiling a pattern, past any thread limit.
    for (const deep of [`x: ${'['.repeat(500_000)}${']'.repeat(500_000)}\n`, `x:\n${'- '.repeat(500_000)}a\n`]) {
      const started = performance.now();
      const error = await refusal(importer.convert(`kind: app\nversion: 0.1.0\n${deep}`, CONTEXT));
      expect(error).toMatchObject({
        key: 'WORKFLOW_IMPORT_INVALID',
        params: { detail: expect.stringContaining('nested') },
      });
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it('still converts after all of that', async () => {
    const { file } = await importer.convert(fixture('dify-loop-break.yml'), CONTEXT);
    expect(file.graph.nodes.map((node) => node.type)).toEqual(['start', 'loop', 'assigner', 'end']);
  });
});
