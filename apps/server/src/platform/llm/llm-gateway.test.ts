import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmGateway, type ResolvedModelKey, type UsageReport } from './llm-gateway.ts';
import { createOutboundFetch } from './outbound-guard.ts';

const silent = { error: () => {}, warn: () => {}, info: () => {} } as unknown as Parameters<
  typeof createLlmGateway
>[0]['log'];

describe('LLM gateway', () => {
  let fake: FakeOpenAI;
  const reports: UsageReport[] = [];
  const spaceId = '00000000-0000-4000-8000-000000000001';
  let key: ResolvedModelKey;
  const gateway = () =>
    createLlmGateway({
      recordUsage: async (report) => reports.push(report),
      fetch: createOutboundFetch({ allowPrivate: true }),
      log: silent,
    });

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1 });
    key = { id: null, baseUrl: fake.url, apiKey: 'sk-fake', version: 'fake-chat', purpose: 'chat' };
  });
  afterAll(async () => {
    await fake.close();
  });

  const usage = () => ({ spaceId, userId: null, source: 'test' });

  it('passes tool definitions through and returns the tool call, streaming and not', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ];
    const messages = [{ role: 'user' as const, content: 'what is the weather' }];
    const completion = await gateway().chat({ key, messages, tools, usage: usage() });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Shanghai"}' },
    });

    let args = '';
    for await (const chunk of gateway().chatStream({ key, messages, tools, usage: usage() })) {
      args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
    }
    expect(JSON.parse(args)).toEqual({ city: 'Shanghai' });
  });

  it('retries a 500 once and succeeds, recording one usage row', async () => {
    fake.setMode('flaky');
    const before = reports.length;
    const completion = await gateway().chat({ key, messages: [{ role: 'user', content: 'hello' }], usage: usage() });
    expect(completion.choices[0].message.content).toBe('Echo: hello');
    fake.setMode('normal');
    expect(reports.length).toBe(before + 1);
  });

  it('returns deterministic embeddings', async () => {
    const embedKey = { ...key, version: 'fake-embed', purpose: 'embedding' as const };
    const [a, b] = await gateway().embed({ key: embedKey, input: ['同一句话', '同一句话'], usage: usage() });
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(8);
  });
});
