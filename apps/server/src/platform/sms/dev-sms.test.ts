import { describe, expect, it } from 'vitest';
import { createDevSmsProvider } from './dev-sms.ts';

const silentLog = { info: () => {} } as unknown as Parameters<typeof createDevSmsProvider>[0];

describe('the dev SMS provider', () => {
  it('prints the code as a plain line when the server runs in a terminal', async () => {
    const lines: string[] = [];
    await createDevSmsProvider(silentLog, { isTTY: true, write: (text) => lines.push(text) }).sendCode(
      '13900000001',
      '123456',
    );
    expect(lines.join('')).toContain('SMS code for 13900000001: 123456');
  });

  it('keeps the output JSON lines only when it is a file or a pipe', async () => {
    const lines: string[] = [];
    await createDevSmsProvider(silentLog, { isTTY: false, write: (text) => lines.push(text) }).sendCode(
      '13900000001',
      '123456',
    );
    expect(lines).toEqual([]);
  });
});
