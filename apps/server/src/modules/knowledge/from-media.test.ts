import { knowledgeRoutes, mediaRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeChinesePdf,
  makeDocxWithHeadingsAndTable,
} from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { makePng, makeZip } from '../custom-business/test-files.ts';
import { mediaItems } from '../media/media.schema.ts';
import { uploadSmall } from '../media/media-test-helpers.ts';
import { allSegments, caller, paragraphs, waitForUnit } from './knowledge-test-helpers.ts';

const route = knowledgeRoutes.unitFromMedia;

describe('adding a media document to a knowledge base', () => {
  let t: TestApp;
  let team: TeamFixture;
  let creator: Record<string, string>;
  let library: string;
  let base: string;

  const add = (knowledgeId: string, itemId: string, headers = creator) =>
    t.call(route, { knowledge_id: knowledgeId, media_item_id: itemId }, headers);
  const media = (name: string, bytes: Buffer | Uint8Array, headers = creator, libraryId = library) =>
    uploadSmall(t, headers, libraryId, name, Buffer.from(bytes));

  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    team = await buildTeam(t, { phonePrefix: '137000091' });
    creator = team.as(team.creator);
    library = (await t.call(mediaRoutes.libraryCreate, { name: 'Docs' }, creator)).body.data.id;
    base = (await t.call(knowledgeRoutes.create, { name: 'Handbook' }, creator)).body.data.id;
  }, 60_000);
  afterAll(() => t?.close());

  it('makes a unit named as the item, queued at once, indexed like an upload', async () => {
    const text = `Holidays\n\nEvery employee has 25 days of paid leave a year.\n\n${paragraphs(3).toString('utf8')}`;
    const item = await media('员工手册 handbook.txt', Buffer.from(text));
    const res = await add(base, item);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      knowledge_id: base,
      file_name: '员工手册 handbook.txt',
      file_kind: 'txt',
      size: Buffer.byteLength(text),
      chunking: { mode: 'auto' },
    });
    expect(['waiting', 'indexing', 'indexed']).toContain(res.body.data.status);

    const call = caller(t, creator);
    const unit = await waitForUnit(call, res.body.data.id, (u) => u.status === 'indexed');
    expect(unit.segment_count).toBeGreaterThan(0);
    const segments = await allSegments(call, base, unit.id);
    expect(segments.map((s) => s.content).join('\n')).toContain('25 days of paid leave');
    const list = (await t.call(knowledgeRoutes.unitList, { knowledge_id: base }, creator)).body.data.items;
    expect(list.map((u) => u.file_name)).toContain('员工手册 handbook.txt');

    // The same item again is the same content: the upload's duplicate refusal, naming the file.
    const again = await add(base, item);
    expect(again.body).toMatchObject({ code: 40105 });
    expect(again.body.msg).toContain('员工手册 handbook.txt');
  });

  it('takes a PDF and a DOCX by their content', async () => {
    const pdf = await add(base, await media('rules.pdf', await makeChinesePdf(2)));
    expect(pdf.body.data).toMatchObject({ file_name: 'rules.pdf', file_kind: 'pdf' });
    const docx = await add(base, await media('guide.docx', await makeDocxWithHeadingsAndTable()));
    expect(docx.body.data).toMatchObject({ file_name: 'guide.docx', file_kind: 'docx' });
    const call = caller(t, creator);
    for (const id of [pdf.body.data.id, docx.body.data.id]) {
      expect((await waitForUnit(call, id, (u) => u.status === 'indexed')).segment_count).toBeGreaterThan(0);
    }
  });

  it('refuses images and videos with the knowledge type error, without reading them', async () => {
    const png = await add(base, await media('photo.png', makePng()), { ...creator, language: 'en' });
    expect(png.body).toMatchObject({
      code: 40102,
      msg: 'Unsupported file format. Only PDF, TXT, DOCX or Excel/CSV files are accepted.',
    });
    // Anything else goes to the knowledge check, which reads its content (an archive: refused).
    const zip = makeZip({ 'notes/readme.md': 'Not an Office document.' });
    expect((await add(base, await media('notes.docx', zip))).body.code).toBe(40102);
    const video = await row({ name: 'clip.mp4', kind: 'video', mimeType: 'video/mp4', size: 1_000 });
    expect((await add(base, video)).body.code).toBe(40102);
  });

  it('refuses an item over 20 MB from its size alone (its bytes are never read)', async () => {
    // The row claims 21 MB and points at no file: reading it would fail otherwise.
    const big = await row({ name: 'big.txt', kind: 'other', mimeType: 'application/octet-stream', size: 21 << 20 });
    const res = await add(base, big, { ...creator, language: 'en' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 40103, msg: 'File size exceeded: each file must be 20 MB or smaller.' });
  });

  it('answers NOT_FOUND for an item of another team, in the trash, or missing', async () => {
    const strangerHeaders = team.as(team.stranger, team.strangerTeamId);
    const theirLibrary = (await t.call(mediaRoutes.libraryCreate, { name: 'Theirs' }, strangerHeaders)).body.data.id;
    const theirs = await media('theirs.txt', Buffer.from('A document of another team.'), strangerHeaders, theirLibrary);
    expect((await add(base, theirs)).body.code).toBe(40400);

    const trashed = await media('old.txt', Buffer.from('A document that went to the trash.'));
    expect((await t.call(mediaRoutes.itemDelete, { id: trashed }, creator)).body.code).toBe(0);
    expect((await add(base, trashed)).body.code).toBe(40400);
    expect((await add(base, '00000000-0000-4000-8000-000000000000')).body.code).toBe(40400);
    expect((await add(base, 'not-a-uuid')).body.code).toBe(40400);

    // Our base seen from the stranger's team, with their own item: NOT_FOUND too.
    expect((await add(base, theirs, strangerHeaders)).body.code).toBe(40400);
  });

  it('follows the upload’s rule on the base: a member adds to their own base, not to another’s', async () => {
    const member = team.as(team.member);
    // Any member reads the team's media: the creator's item, into the member's own base.
    const item = await media('faq.txt', Buffer.from('Q: Where is the office?\nA: On the third floor.'));
    const theirs = await add(base, item, member);
    expect(theirs.body.code).toBe(40300);
    const own = (await t.call(knowledgeRoutes.create, { name: 'Member notes' }, member)).body.data.id;
    const res = await add(own, item, member);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ knowledge_id: own, file_name: 'faq.txt' });
    // The admin may add to anyone's base.
    const admin = await add(
      own,
      await media('policy.txt', Buffer.from('Admins may add files too.')),
      team.as(team.admin),
    );
    expect(admin.body.code).toBe(0);
  });

  /** A media row made directly, for kinds and sizes an upload here cannot cheaply make. */
  async function row(fields: { name: string; kind: string; mimeType: string; size: number }) {
    const [inserted] = await t.database.db
      .insert(mediaItems)
      .values({
        ...fields,
        spaceId: team.teamId,
        libraryId: library,
        status: 'ready',
        storageKey: `${team.teamId}/00000000-0000-4000-8000-000000000001`,
        createdBy: team.ids.creator,
      })
      .returning({ id: mediaItems.id });
    return inserted.id;
  }
});
