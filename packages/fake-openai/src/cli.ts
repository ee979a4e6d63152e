// Manual and browser-test use: node --import tsx packages/fake-openai/src/cli.ts --port 4010
import { parseArgs } from 'node:util';
import { startFakeOpenAI } from './server.ts';
import { MODES, type Mode } from './types.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string' },
    models: { type: 'string' },
    'token-delay-ms': { type: 'string' },
    mode: { type: 'string', default: 'normal' },
  },
});

if (!MODES.includes(values.mode as Mode)) {
  console.error(`Unknown --mode ${values.mode}; expected one of ${MODES.join(', ')}`);
  process.exit(2);
}

const fake = await startFakeOpenAI({
  port: Number(values.port),
  host: values.host,
  apiKey: values['api-key'],
  models: values.models?.split(',').map((model) => model.trim()),
  tokenDelayMs: values['token-delay-ms'] === undefined ? undefined : Number(values['token-delay-ms']),
});
fake.setMode(values.mode as Mode);

// The URL alone on stdout so scripts can read it; the rest is for people.
console.log(fake.url);
console.error(`fake-openai: API key ${fake.apiKey}, mode ${values.mode}. Ctrl-C to stop.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
