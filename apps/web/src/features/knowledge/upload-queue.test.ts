import { KNOWLEDGE_MAX_FILE_BYTES, type KnowledgeUnit } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  enqueue,
  markFailed,
  markUploaded,
  markUploading,
  placesLeft,
  queueSummary,
  removeEntry,
  retryEntry,
  setProgress,
  startable,
  type UploadEntry,
} from './upload-queue.ts';

const keys = (prefix: string) => (index: number) => `${prefix}${index}`;
const describeProblem = (problem: string) => `refused:${problem}`;
const files = (count: number, prefix = 'f') =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}.pdf`, size: 1000 + i }));
const unit = (id: string) => ({ id, file_name: `${id}.pdf`, file_kind: 'pdf' }) as KnowledgeUnit;

describe('upload queue', () => {
  it('checks each file, queues the good ones and refuses the rest with the contract’s reason', () => {
    const { entries, added, tooMany } = enqueue(
      [],
      [
        { name: 'a.pdf', size: 10 },
        { name: 'b.exe', size: 10 },
        { name: 'c.csv', size: KNOWLEDGE_MAX_FILE_BYTES + 1 },
        { name: 'd.txt', size: 0 },
      ],
      keys('k'),
      describeProblem,
    );
    expect(tooMany).toBe(false);
    expect(added).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(entries.map((e) => [e.name, e.status, e.error])).toEqual([
      ['a.pdf', 'queued', null],
      ['b.exe', 'refused', 'refused:UNSUPPORTED_FILE_FORMAT'],
      ['c.csv', 'refused', 'refused:FILE_SIZE_EXCEEDED'],
      ['d.txt', 'refused', 'refused:FILE_EMPTY'],
    ]);
  });

  it('keeps to ten files: extra files are left out and said so; refused ones take no place', () => {
    const first = enqueue([], files(8), keys('a'), describeProblem);
    expect(placesLeft(first.entries)).toBe(2);
    const second = enqueue(first.entries, [{ name: 'bad.zip', size: 5 }, ...files(3, 'g')], keys('b'), describeProblem);
    expect(second.tooMany).toBe(true);
    expect(second.entries.filter((e) => e.status === 'queued')).toHaveLength(10);
    expect(second.entries.filter((e) => e.status === 'refused')).toHaveLength(1);
    expect(second.added).toEqual(['b0', 'b1', 'b2']);
    expect(queueSummary(second.entries).full).toBe(true);
  });

  it('starts at most three at a time, oldest first', () => {
    let { entries } = enqueue([], files(5), keys('k'), describeProblem);
    expect(startable(entries)).toEqual(['k0', 'k1', 'k2']);
    entries = markUploading(entries, 'k0');
    entries = markUploading(entries, 'k1');
    expect(startable(entries)).toEqual(['k2']);
    entries = markUploaded(markUploading(entries, 'k2'), 'k0', unit('u0'));
    expect(startable(entries)).toEqual(['k3']);
  });

  it('moves progress forward only while uploading and keeps 100 for the end', () => {
    let { entries } = enqueue([], files(1), keys('k'), describeProblem);
    entries = setProgress(entries, 'k0', 40);
    expect(entries[0].percent).toBe(0);
    entries = markUploading(entries, 'k0');
    entries = setProgress(entries, 'k0', 40.4);
    entries = setProgress(entries, 'k0', 20);
    expect(entries[0].percent).toBe(40);
    entries = setProgress(entries, 'k0', 100);
    expect(entries[0].percent).toBe(99);
    entries = markUploaded(entries, 'k0', unit('u1'));
    entries = setProgress(entries, 'k0', 50);
    expect(entries[0]).toMatchObject({ status: 'uploaded', percent: 100, unit: { id: 'u1' } });
  });

  it('lets a failed file be tried again only while a place is free', () => {
    let { entries } = enqueue([], files(10), keys('k'), describeProblem);
    entries = markFailed(markUploading(entries, 'k0'), 'k0', 'duplicate');
    expect(entries[0]).toMatchObject({ status: 'failed', error: 'duplicate' });
    expect(placesLeft(entries)).toBe(1);
    const retried = retryEntry(entries, 'k0') as UploadEntry[];
    expect(retried[0]).toMatchObject({ status: 'queued', error: null, percent: 0 });
    // Someone took the place meanwhile.
    const crowded = enqueue(entries, files(1, 'x'), keys('x'), describeProblem).entries;
    expect(retryEntry(crowded, 'k0')).toBeNull();
    expect(retryEntry(entries, 'k1')).toBeNull();
  });

  it('summarises what is uploaded, busy and wrong; removing frees the place', () => {
    let { entries } = enqueue([], [...files(2), { name: 'x.png', size: 3 }], keys('k'), describeProblem);
    entries = markUploaded(markUploading(entries, 'k0'), 'k0', unit('u0'));
    expect(queueSummary(entries)).toMatchObject({ busy: true, problems: 1, full: false });
    expect(queueSummary(entries).units.map((u) => u.id)).toEqual(['u0']);
    entries = removeEntry(entries, 'k1');
    expect(queueSummary(entries).busy).toBe(false);
  });
});
