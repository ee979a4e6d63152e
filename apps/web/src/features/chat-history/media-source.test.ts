import { describe, expect, it } from 'vitest';
import { mediaOf } from './media-source.ts';

const none = { media_state: 'none', media_url: null, media_error: null } as const;

describe('where a message’s media is', () => {
  it('is the sender’s own address for an ingest message', () => {
    expect(mediaOf({ ...none, payload: { url: 'https://cdn.example.com/a.png' } })).toEqual({
      kind: 'ready',
      url: 'https://cdn.example.com/a.png',
    });
    expect(mediaOf({ ...none, payload: {} })).toEqual({ kind: 'missing' });
    expect(mediaOf({ ...none, payload: { url: 'javascript:alert(1)' } })).toEqual({ kind: 'missing' });
  });

  it('is our stored copy of a channel’s media, here or at a full address', () => {
    const stored = {
      media_state: 'stored',
      media_error: null,
      payload: { url: 'https://wecom.example/expired' },
    } as const;
    expect(mediaOf({ ...stored, media_url: '/files/chat/1?sig=x' })).toEqual({
      kind: 'ready',
      url: '/files/chat/1?sig=x',
    });
    expect(mediaOf({ ...stored, media_url: 'https://athena.example.com/files/1' })).toEqual({
      kind: 'ready',
      url: 'https://athena.example.com/files/1',
    });
    // A protocol-relative address would leave this server.
    expect(mediaOf({ ...stored, media_url: '//evil.example/x' })).toEqual({ kind: 'missing' });
  });

  it('says when the copy is still coming or failed', () => {
    expect(mediaOf({ ...none, media_state: 'pending', payload: {} })).toEqual({ kind: 'pending' });
    expect(mediaOf({ ...none, media_state: 'failed', media_error: 'expired', payload: {} })).toEqual({
      kind: 'failed',
      error: 'expired',
    });
  });
});
