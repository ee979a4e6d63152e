import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentTypeOfKey, createDiskStorage, createMemoryStorage, createObjectStorage } from './storage.ts';

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'athena-storage-'));
afterAll(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

const BAD_KEYS = [
  '../escape.png',
  'a/../../escape.png',
  '/etc/passwd.png',
  'a//b.png',
  '.hidden.png',
  'a/.b/c.png',
  'a\\..\\b.png',
  'noextension',
  'script.html',
  'avatars/x/y.png\u0000.jpg',
  '',
];

describe.each([
  ['memory', () => createMemoryStorage()],
  ['disk', () => createDiskStorage(fs.mkdtempSync(path.join(tempRoot, 'disk-')))],
])('%s object storage', (_name, make) => {
  it('round-trips bytes and gives the content type the key stands for', async () => {
    const storage = make();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await storage.put('avatars/u1/abc.png', bytes, 'image/png');
    await storage.put('avatars/u1/abc.jpg', Buffer.from('jpeg'), 'image/jpeg');
    expect(await storage.get('avatars/u1/abc.png')).toEqual({ bytes, contentType: 'image/png' });
    expect((await storage.get('avatars/u1/abc.jpg'))?.contentType).toBe('image/jpeg');
    expect(await storage.get('avatars/u1/missing.png')).toBeNull();
  });

  it('replaces an object written twice under one key', async () => {
    const storage = make();
    await storage.put('k/v.png', Buffer.from('one'), 'image/png');
    await storage.put('k/v.png', Buffer.from('two'), 'image/png');
    expect((await storage.get('k/v.png'))?.bytes.toString()).toBe('two');
  });

  it('refuses keys that could leave the store or that do not match the content type', async () => {
    const storage = make();
    for (const key of BAD_KEYS) {
      await expect(storage.put(key, Buffer.from('x'), 'image/png'), key).rejects.toThrow(/invalid key/);
      expect(await storage.get(key), key).toBeNull();
    }
    await expect(storage.put('a/b.png', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/does not match/);
    await expect(storage.put('a/b.png', Buffer.from('x'), 'text/html')).rejects.toThrow(/does not match/);
  });
});

describe('disk storage layout', () => {
  it('writes under <DATA_DIR>/files and leaves no temporary files behind', async () => {
    const dataDir = fs.mkdtempSync(path.join(tempRoot, 'data-'));
    const storage = createObjectStorage(dataDir);
    await storage.put('avatars/u/h.png', Buffer.from('png'), 'image/png');
    expect(fs.readFileSync(path.join(dataDir, 'files/avatars/u/h.png'), 'utf8')).toBe('png');
    expect(fs.readdirSync(path.join(dataDir, 'files/avatars/u'))).toEqual(['h.png']);
  });

  it('never reads outside its root even when the file exists there', async () => {
    const dataDir = fs.mkdtempSync(path.join(tempRoot, 'data-'));
    fs.writeFileSync(path.join(dataDir, 'secret.png'), 'secret');
    const storage = createObjectStorage(dataDir);
    expect(await storage.get('../secret.png')).toBeNull();
  });

  it('uses memory for in-memory data directories', async () => {
    const storage = createObjectStorage('memory://');
    await storage.put('a/b.png', Buffer.from('x'), 'image/png');
    expect((await storage.get('a/b.png'))?.bytes.toString()).toBe('x');
    expect(fs.existsSync('memory:')).toBe(false);
  });
});

describe('contentTypeOfKey', () => {
  it('knows only the types we store', () => {
    expect(contentTypeOfKey('a/b.png')).toBe('image/png');
    expect(contentTypeOfKey('a/b.jpg')).toBe('image/jpeg');
    expect(contentTypeOfKey('a/b.svg')).toBeNull();
    expect(contentTypeOfKey('a/b.PNG')).toBeNull();
  });
});
