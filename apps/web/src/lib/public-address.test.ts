import { describe, expect, it } from 'vitest';
import { publicLink, publicOrigin } from './public-address.ts';

describe('addresses shown to be shared', () => {
  it('use PUBLIC_URL when the operator set it, else the browser’s own address', () => {
    expect(publicOrigin('https://ai.example.com/', 'http://10.0.0.5:3000')).toBe('https://ai.example.com');
    expect(publicOrigin('', 'http://10.0.0.5:3000')).toBe('http://10.0.0.5:3000');
  });

  it('re-base a server-built localhost link only when PUBLIC_URL is unset', () => {
    const invite = 'http://localhost:3000/invite/AbC?x=1#top';
    expect(publicLink(invite, '', 'http://10.0.0.5:3000')).toBe('http://10.0.0.5:3000/invite/AbC?x=1#top');
    expect(publicLink('https://ai.example.com/share/k', 'https://ai.example.com', 'http://x')).toBe(
      'https://ai.example.com/share/k',
    );
  });
});
