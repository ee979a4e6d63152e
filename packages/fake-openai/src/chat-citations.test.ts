import { describe, expect, it } from 'vitest';
import { planReply } from './chat.ts';

const textOfReply = (reply: ReturnType<typeof planReply>) => (reply.kind === 'text' ? reply.pieces.join('') : '');

describe('grounded prompts', () => {
  it('cite every source the system message lists, once each', () => {
    const reply = planReply(
      {
        model: 'fake-chat',
        stream: false,
        messages: [
          {
            role: 'system',
            content: 'Use the sources.\n[1] refund.md\nMoney back in 7 days.\n[2] leave.md\n[1] again',
          },
          { role: 'user', content: 'refund?' },
        ],
      } as Parameters<typeof planReply>[0],
      'call_1',
    );
    expect(textOfReply(reply)).toBe('Echo: refund? [1][2]');
  });

  it('answer plainly without sources', () => {
    const reply = planReply(
      { model: 'fake-chat', stream: false, messages: [{ role: 'user', content: 'hi [1] ' }] } as Parameters<
        typeof planReply
      >[0],
      'call_1',
    );
    expect(textOfReply(reply)).toBe('Echo: hi [1] ');
  });
});
