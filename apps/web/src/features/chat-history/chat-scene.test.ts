import type { Scene } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { chatScenesOf, resolveScene } from './chat-scene.ts';

const scene = (type: number): Scene => ({ type, label: `scene ${type}`, value: String(type), quntool_host: '' });
const SCENES = [scene(5), scene(10), scene(19), scene(10010), scene(0)];

describe('chat scenes', () => {
  it('leave out the agent scene and "undefined"', () => {
    expect(chatScenesOf(SCENES).map((s) => s.type)).toEqual([5, 10, 19]);
  });

  it('take the first candidate the deployment offers', () => {
    expect(resolveScene(['19', '5', 5], SCENES)).toBe(19);
    expect(resolveScene([null, '10', 5], SCENES)).toBe(10);
  });

  it('skip the agent scene, unknown and malformed values', () => {
    expect(resolveScene(['10010', 'abc', '7', 5], SCENES)).toBe(5);
  });

  it('fall back to the first chat scene, or none', () => {
    expect(resolveScene(['42'], SCENES)).toBe(5);
    expect(resolveScene(['5'], [scene(10010)])).toBeNull();
  });
});
