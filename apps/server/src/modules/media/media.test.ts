import { type Envelope, mediaRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { makePng } from '../custom-business/test-files.ts';
import { tusMetadata, uploadSmall } from './media-test-helpers.ts';

const FORBIDDEN = 40300;
const NOT_FOUND = 40400;

describe('media libraries: groups, libraries, items, delivery', () => {
  let t: TestApp;
  let team: TeamFixture;
  let now = new Date();
  let library: string;
  let item: string;
  const bytes = Buffer.concat([makePng(), Buffer.alloc(1000, 7)]);

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    team = await buildTeam(t, { phonePrefix: '136300000' });
    const created = await t.call(mediaRoutes.libraryCreate, { name: 'Covers' }, team.as(team.member));
    library = created.body.data.id;
    item = await uploadSmall(t, team.as(team.member), library, 'cover "1".png', bytes);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const code = (answer: { body: Envelope }) => answer.body.code;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const urlOf = async () => (await t.call(mediaRoutes.itemUrl, { id: item }, team.as(team.admin))).body.data.url;

  it('groups: unique names per space; deleting one leaves its libraries ungrouped', async () => {
    const as = team.as(team.member);
    const group = (await t.call(mediaRoutes.groupCreate, { name: 'Trips' }, as)).body.data;
    expect(code(await t.call(mediaRoutes.groupCreate, { name: 'Trips' }, as))).toBe(40701);
    // Another team may use the same name.
    const theirs = team.as(team.stranger, team.strangerTeamId);
    expect(code(await t.call(mediaRoutes.groupCreate, { name: 'Trips' }, theirs))).toBe(0);
    expect(group.can_edit).toBe(true);
    // A member may rename or delete only their own groups, and the list says which.
    const board = (await t.call(mediaRoutes.groupCreate, { name: 'Board' }, team.as(team.creator))).body.data;
    const seen = (await t.call(mediaRoutes.groupList, {}, as)).body.data.items;
    expect(seen.map((g) => [g.name, g.can_edit])).toEqual([
      ['Board', false],
      ['Trips', true],
    ]);
    expect(code(await t.call(mediaRoutes.groupRename, { id: board.id, name: 'Mine' }, as))).toBe(FORBIDDEN);
    const lib = (await t.call(mediaRoutes.libraryCreate, { name: 'Beach', group_id: group.id }, as)).body.data;
    const listed = await t.call(mediaRoutes.libraryList, { group_id: group.id }, as);
    expect(listed.body.data.items.map((l) => l.id)).toEqual([lib.id]);
    expect(code(await t.call(mediaRoutes.groupDelete, { id: group.id }, team.as(team.admin)))).toBe(0);
    expect((await t.call(mediaRoutes.libraryGet, { id: lib.id }, as)).body.data.group_id).toBeNull();
  });

  it('lets members change only their own things; creator and admins everything; strangers nothing', async () => {
    const creatorLib = (await t.call(mediaRoutes.libraryCreate, { name: 'Board' }, team.as(team.creator))).body.data;
    const update = (who: string, id: string) =>
      t.call(mediaRoutes.libraryUpdate, { id, description: `by ${who}` }, team.as(who));
    expect(code(await update(team.member, creatorLib.id))).toBe(FORBIDDEN);
    expect(code(await update(team.member, library))).toBe(0);
    expect(code(await update(team.admin, library))).toBe(0);
    expect(code(await update(team.creator, library))).toBe(0);
    const stranger = team.as(team.stranger, team.strangerTeamId);
    expect(code(await t.call(mediaRoutes.libraryGet, { id: library }, stranger))).toBe(NOT_FOUND);
    expect(code(await t.call(mediaRoutes.itemGet, { id: item }, stranger))).toBe(NOT_FOUND);
    expect(code(await t.call(mediaRoutes.itemList, { library_id: library }, stranger))).toBe(NOT_FOUND);
    expect(code(await t.call(mediaRoutes.itemUpdate, { id: item, description: 'x' }, team.as(team.admin)))).toBe(0);
    // Items follow the same rule: a member may not delete the creator's upload.
    const creatorItem = await uploadSmall(t, team.as(team.creator), creatorLib.id, 'c.png', makePng());
    expect(code(await t.call(mediaRoutes.itemDelete, { id: creatorItem }, team.as(team.member)))).toBe(FORBIDDEN);
    expect(
      code(await t.call(mediaRoutes.itemMove, { id: item, library_id: creatorLib.id }, team.as(team.member))),
    ).toBe(0);
    expect(code(await t.call(mediaRoutes.itemMove, { id: item, library_id: library }, team.as(team.member)))).toBe(0);
  });

  it('lists with filters and sorting, and keeps deleted items in a trash until purged', async () => {
    const as = team.as(team.member);
    await uploadSmall(t, as, library, 'notes.txt', Buffer.from('plain words, no magic'));
    const images = await t.call(mediaRoutes.itemList, { library_id: library, kind: 'image' }, as);
    expect(images.body.data.items.map((i) => i.id)).toEqual([item]);
    const bySize = await t.call(mediaRoutes.itemList, { library_id: library, sort: 'size', order: 'asc' }, as);
    expect(bySize.body.data.items.map((i) => i.name)).toEqual(['notes.txt', 'cover "1".png']);
    const notes = bySize.body.data.items[0].id;
    expect(code(await t.call(mediaRoutes.itemPurge, { id: notes }, as))).toBe(40706);
    expect((await t.call(mediaRoutes.itemDelete, { id: notes }, as)).body.data.deleted_at).not.toBeNull();
    const trash = await t.call(mediaRoutes.itemList, { library_id: library, trash: true }, as);
    expect(trash.body.data.items.map((i) => i.id)).toEqual([notes]);
    expect((await t.call(mediaRoutes.itemRestore, { id: notes }, as)).body.data.deleted_at).toBeNull();
    await t.call(mediaRoutes.itemDelete, { id: notes }, as);
    const before = (await t.call(mediaRoutes.usage, {}, as)).body.data.used_bytes;
    expect(code(await t.call(mediaRoutes.itemPurge, { id: notes }, as))).toBe(0);
    expect((await t.call(mediaRoutes.usage, {}, as)).body.data.used_bytes).toBe(before - 21);

    // What sits in the trash for more than 30 days goes for good; what went in later stays.
    const today = now;
    const old = await uploadSmall(t, as, library, 'old.txt', Buffer.from('old words'));
    const recent = await uploadSmall(t, as, library, 'recent.txt', Buffer.from('recent words'));
    await t.call(mediaRoutes.itemDelete, { id: old }, as);
    now = new Date(now.getTime() + 20 * 86_400_000);
    await t.call(mediaRoutes.itemDelete, { id: recent }, as);
    now = new Date(now.getTime() + 11 * 86_400_000);
    expect(await t.app.modules.media.items.purgeOldTrash()).toBe(1);
    now = today; // sessions expire too
    expect(code(await t.call(mediaRoutes.itemGet, { id: old }, as))).toBe(NOT_FOUND);
    expect(code(await t.call(mediaRoutes.itemGet, { id: recent }, as))).toBe(0);
  });

  it('serves ranges, ETags and safe headers through a signed URL', async () => {
    const url = await urlOf();
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers).toMatchObject({
      'accept-ranges': 'bytes',
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
    });
    expect(whole.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(whole.headers['content-disposition']).toBe(
      `inline; filename="cover _1_.png"; filename*=UTF-8''cover%20%221%22.png`,
    );
    const first = await get(url, { range: 'bytes=0-7' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-7/${bytes.length}`);
    expect(first.rawPayload.equals(bytes.subarray(0, 8))).toBe(true);
    const middle = await get(url, { range: 'bytes=100-199' });
    expect(middle.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const suffix = await get(url, { range: 'bytes=-10' });
    expect(suffix.rawPayload.equals(bytes.subarray(-10))).toBe(true);
    const beyond = await get(url, { range: `bytes=${bytes.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect((await get(url, { range: 'bytes=9-3' })).statusCode).toBe(416);
    const etag = String(whole.headers.etag);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
    // An If-Range that no longer matches gets the whole file, never a piece of other bytes.
    const stale = await get(url, { range: 'bytes=0-7', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    expect((await get(url, { range: 'bytes=0-7', 'if-range': etag })).statusCode).toBe(206);
  });

  it('refuses forged, altered and expired URLs', async () => {
    const url = await urlOf();
    const other = url.replace(/sig=[0-9a-f]{4}/, 'sig=0000');
    expect((await get(other)).statusCode).toBe(404);
    expect((await get(url.replace(/exp=\d+/, (m) => `${m}0`))).statusCode).toBe(404);
    expect((await get(url.replace(item, '00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    // Served (and so remembered by the delivery cache), then trashed: no longer served, at once.
    const as = team.as(team.member);
    const doomed = await uploadSmall(t, as, library, 'doomed.png', makePng());
    const doomedUrl = (await t.call(mediaRoutes.itemUrl, { id: doomed }, as)).body.data.url;
    expect((await get(doomedUrl)).statusCode).toBe(200);
    await t.call(mediaRoutes.itemDelete, { id: doomed }, as);
    expect((await get(doomedUrl)).statusCode).toBe(404);
    await t.call(mediaRoutes.itemRestore, { id: doomed }, as);
    expect((await get(doomedUrl)).statusCode).toBe(200);
    now = new Date(now.getTime() + 3 * 3_600_000);
    try {
      expect((await get(url)).statusCode).toBe(404);
    } finally {
      now = new Date();
    }
  });

  it('removes uploads that expired, their parts included', async () => {
    const as = team.as(team.member);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/athena/v1/media/upload/',
      headers: {
        ...as,
        'tus-resumable': '1.0.0',
        'upload-length': '5000',
        'upload-metadata': tusMetadata({ library_id: library, filename: 'half.bin' }),
      },
    });
    expect(created.statusCode).toBe(201);
    const location = String(created.headers.location);
    const head = () => t.app.inject({ method: 'HEAD', url: location, headers: { ...as, 'tus-resumable': '1.0.0' } });
    expect((await head()).statusCode).toBe(200);
    const { tus } = t.app.modules.media;
    expect(await tus.removeExpired()).toBe(0);
    now = new Date(now.getTime() + 25 * 3_600_000);
    try {
      expect(await tus.removeExpired()).toBe(1);
    } finally {
      now = new Date();
    }
    expect((await head()).statusCode).toBe(404);
  });
});
