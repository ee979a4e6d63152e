import { describe, expect, it } from 'vitest';
import { fitBox, hostOf, mapUrlOf, safeUrl } from './media-size.ts';

describe('fitBox', () => {
  it('keeps the proportions within the limit', () => {
    expect(fitBox(800, 600, 220)).toEqual({ width: 220, height: 165 });
    expect(fitBox(600, 800, 220)).toEqual({ width: 165, height: 220 });
  });

  it('never enlarges a small picture, nor makes a sliver', () => {
    expect(fitBox(120, 120, 220)).toEqual({ width: 120, height: 120 });
    expect(fitBox(2000, 20, 220)).toEqual({ width: 220, height: 48 });
  });

  it('uses a square when the size is unknown', () => {
    expect(fitBox(undefined, 300, 180)).toEqual({ width: 180, height: 180 });
    expect(fitBox(0, 0, 180)).toEqual({ width: 180, height: 180 });
  });
});

describe('addresses', () => {
  it('accepts only http(s) ones', () => {
    expect(safeUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl(undefined)).toBeUndefined();
  });

  it('name the site a link goes to, or nothing', () => {
    expect(hostOf('https://shop.example.com/a?b=1')).toBe('shop.example.com');
    expect(hostOf('http://[bad')).toBe('');
  });

  it('points a map at the place', () => {
    expect(mapUrlOf(31.23, 121.47)).toBe('https://www.openstreetmap.org/?mlat=31.23&mlon=121.47#map=16/31.23/121.47');
  });
});
