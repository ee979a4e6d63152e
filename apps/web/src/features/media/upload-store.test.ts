import { beforeEach, describe, expect, it } from 'vitest';
import { type UploadEntry, useUploadStore } from './upload-store.ts';

const entry = (id: string, status: UploadEntry['status']): UploadEntry => ({
  id,
  file: new Blob(['x']) as File,
  libraryId: 'lib',
  name: `${id}.bin`,
  size: 1,
  sent: 0,
  status,
  speed: null,
  error: null,
  resumed: false,
  itemId: null,
});

describe('upload store', () => {
  beforeEach(() => useUploadStore.setState({ entries: [], unfinished: [] }));

  it('patches one row and clears only finished and canceled ones', () => {
    const store = useUploadStore.getState();
    store.add([entry('a', 'uploading'), entry('b', 'done'), entry('c', 'failed'), entry('d', 'canceled')]);
    store.patch('a', { sent: 1, status: 'done' });
    expect(useUploadStore.getState().entries.find((e) => e.id === 'a')?.sent).toBe(1);
    store.patch('a', { status: 'paused' });
    store.clearFinished();
    expect(useUploadStore.getState().entries.map((e) => e.id)).toEqual(['a', 'c']);
  });

  it('forgets an interrupted upload once its file is chosen again for the same library', () => {
    const base = { uploadUrl: null, size: 5, createdAt: '2026-01-01T00:00:00Z' };
    useUploadStore.getState().setUnfinished([
      { ...base, key: 'k1', name: 'a.mp4', libraryId: 'lib' },
      { ...base, key: 'k2', name: 'a.mp4', libraryId: 'other' },
    ]);
    useUploadStore.getState().forgetUnfinished([{ name: 'a.mp4', libraryId: 'lib' }]);
    expect(useUploadStore.getState().unfinished.map((u) => u.key)).toEqual(['k2']);
  });
});
