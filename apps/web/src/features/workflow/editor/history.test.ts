import { describe, expect, it } from 'vitest';
import { History } from './history.ts';

describe('undo history', () => {
  it('undoes and redoes in order, and a new change drops the redo branch', () => {
    const history = new History<number>();
    let state = 0;
    const change = (next: number) => {
      history.record(state);
      state = next;
    };
    change(1);
    change(2);
    change(3);
    state = history.undo(state) ?? state;
    expect(state).toBe(2);
    state = history.undo(state) ?? state;
    expect(state).toBe(1);
    state = history.redo(state) ?? state;
    expect(state).toBe(2);
    change(9);
    expect(history.canRedo).toBe(false);
    expect(history.redo(state)).toBeNull();
    state = history.undo(state) ?? state;
    expect(state).toBe(2);
    state = history.undo(state) ?? state;
    state = history.undo(state) ?? state;
    expect(state).toBe(0);
    expect(history.undo(state)).toBeNull();
  });

  it('records a burst of edits with one merge key once', () => {
    let now = 0;
    const history = new History<string>(100, 1_000, () => now);
    history.record('a', 'title');
    now += 200;
    history.record('ab', 'title');
    now += 200;
    history.record('abc', 'title');
    expect(history.undo('abcd')).toBe('a');
    expect(history.canUndo).toBe(false);
    now += 5_000;
    history.record('x', 'title');
    now += 2_000;
    history.record('xy', 'title');
    expect(history.undo('xyz')).toBe('xy');
  });

  it('keeps at most its limit', () => {
    const history = new History<number>(3);
    for (let i = 0; i < 10; i++) history.record(i);
    expect([history.undo(10), history.undo(9), history.undo(8), history.undo(7)]).toEqual([9, 8, 7, null]);
  });
});
