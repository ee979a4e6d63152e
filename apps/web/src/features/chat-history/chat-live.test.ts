import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { followChatLive, liveRetryDelay } from './chat-live.ts';

type Open = NonNullable<Parameters<typeof followChatLive>[0]['open']>;

describe('following live chat changes', () => {
  it('waits longer after each failure, up to a minute', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map(liveRetryDelay)).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
  });

  it('passes changes on, and refetches everything after a working connection dropped', async () => {
    const controller = new AbortController();
    const changes: string[][] = [];
    const waits: number[] = [];
    let opened = 0;
    const open: Open = async (_signal, onEvent) => {
      opened++;
      if (opened === 1) onEvent({ event: 'changed', data: { conversation_ids: ['7'] } });
      // The second try finds no stream (an older server answers 404).
      if (opened === 2) throw new ApiError('', undefined, 'http', false, 404);
      if (opened === 3) controller.abort();
      return { ended: false };
    };
    const outcome = await followChatLive({
      signal: controller.signal,
      onChanged: (ids) => changes.push(ids),
      open,
      sleep: async (ms) => {
        waits.push(ms);
      },
      now: () => 0,
    });
    expect(outcome).toBe('aborted');
    // After the second try, refused at once, nothing was missed: no second refetch.
    expect(changes).toEqual([['7'], []]);
    // A connection that carried events starts the waits afresh; a failed one waits longer.
    expect(waits).toEqual([1000, 2000]);
  });

  it('counts a quiet connection that stayed open as a working one', async () => {
    const controller = new AbortController();
    const changes: string[][] = [];
    let clock = 0;
    let opened = 0;
    await followChatLive({
      signal: controller.signal,
      onChanged: (ids) => changes.push(ids),
      open: async () => {
        opened++;
        // Open ten seconds, no change in the scene, then the connection drops.
        if (opened === 1) clock += 10_000;
        else controller.abort();
        return { ended: false };
      },
      sleep: async () => {},
      now: () => clock,
    });
    expect(changes).toEqual([[]]);
  });

  it('reconnects at once when the server ends a stream, and refetches what it may have missed', async () => {
    const controller = new AbortController();
    const changes: string[][] = [];
    const waits: number[] = [];
    let opened = 0;
    await followChatLive({
      signal: controller.signal,
      onChanged: (ids) => changes.push(ids),
      open: async (_signal, onEvent) => {
        opened++;
        if (opened === 2) controller.abort();
        onEvent({ event: 'bye', data: {} });
        return { ended: true };
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(waits).toEqual([]);
    expect(changes).toEqual([[]]);
  });

  it('stops on a refusal (no chat history in this scene)', async () => {
    const outcome = await followChatLive({
      signal: new AbortController().signal,
      onChanged: () => {},
      open: async () => {
        throw new ApiError('no chat history', 40500, 'business');
      },
      sleep: async () => {},
    });
    expect(outcome).toBe('refused');
  });
});
