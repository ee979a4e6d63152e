import { ATTACHMENT_MAX_BYTES, type RequestDetail } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOSE_UPLOADS_PER_DAY } from './attachments.ts';
import { type CustomBusinessFixture, setUpCustomBusiness, validRequest } from './cb-fixture.ts';
import { makeDocx, makeJpeg, makePdf, makePng, makeXlsx, makeZip } from './test-files.ts';

const NOT_FOUND = 40400;

describe('custom business attachments', () => {
  let f: CustomBusinessFixture;
  beforeAll(async () => {
    f = await setUpCustomBusiness();
  });
  afterAll(() => f.close());

  describe('upload', () => {
    it.each([
      ['需求说明.pdf', makePdf(), 'application/pdf'],
      ['流程图.png', makePng(), 'image/png'],
      ['photo.jpg', makeJpeg(), 'image/jpeg'],
      ['方案.docx', makeDocx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['数据.xlsx', makeXlsx(), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ])('accepts %s, typed by its content', async (name, bytes, type) => {
      const { status, body } = await f.upload(bytes, name, f.as('member'));
      expect(status).toBe(200);
      expect(body).toMatchObject({ code: 0, data: { name, size: bytes.length, content_type: type } });
    });

    it('goes by the bytes, not the name or the declared type', async () => {
      const png = await f.uploadOk(makePng(), 'looks-like.pdf', f.as('member'));
      expect(png.content_type).toBe('image/png');
      for (const [name, bytes] of [
        ['fake.pdf', Buffer.from('this is only text')],
        ['archive.docx', makeZip({ 'notes.txt': 'not an office file' })],
        ['old.doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])],
        ['empty.pdf', Buffer.alloc(0)],
      ] as const) {
        const { body } = await f.upload(bytes, name, f.as('member', undefined, 'en'), 'application/pdf');
        expect(body, name).toMatchObject({
          code: 40086,
          msg: 'Attachments must be PDF, DOCX, XLSX, PNG or JPG files.',
        });
      }
    });

    it('takes exactly 10 MB and refuses a byte more, in the caller’s language', async () => {
      const atLimit = Buffer.concat([makePdf(), Buffer.alloc(ATTACHMENT_MAX_BYTES - makePdf().length)]);
      expect((await f.upload(atLimit, 'big.pdf', f.as('member'))).body.code).toBe(0);
      const over = Buffer.concat([atLimit, Buffer.from('x')]);
      const res = await f.upload(over, 'big.pdf', f.as('member', undefined, 'zh-CN'));
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 40087, msg: '单个附件不能超过 10 MB。' });
      const farOver = await f.upload(
        Buffer.alloc(ATTACHMENT_MAX_BYTES * 2),
        'huge.pdf',
        f.as('member', undefined, 'en'),
      );
      expect(farOver.status).toBe(413);
      expect(farOver.body).toMatchObject({ code: 40087, msg: 'Each attachment must be 10 MB or smaller.' });
    });

    it('needs the file name header', async () => {
      const { body } = await f.upload(makePdf(), null, f.as('member', undefined, 'en'));
      expect(body.code).toBe(40000);
      expect(body.msg).toContain('x-file-name');
    });

    it('caps uploads that never become part of a request at 30 a day per person', async () => {
      const ids: string[] = [];
      for (let i = 0; i < LOOSE_UPLOADS_PER_DAY; i++) {
        ids.push((await f.uploadOk(makePng(), `${i}.png`, f.as('creator'))).id);
      }
      const { body } = await f.upload(makePng(), 'one-more.png', f.as('creator', undefined, 'en'));
      expect(body.code).toBe(42900);
      // Files that went into a request no longer count.
      await f.ok('create', validRequest({ attachment_ids: ids.slice(0, 5) }), f.as('creator'));
      expect((await f.upload(makePng(), 'now-fine.png', f.as('creator'))).body.code).toBe(0);
    });

    it('needs a session and a space the caller belongs to', async () => {
      expect((await f.upload(makePdf(), 'a.pdf', { 'space-id': f.team.teamId })).body.code).toBe(10001);
      expect((await f.upload(makePdf(), 'a.pdf', f.as('stranger'))).body.code).toBe(16023);
      expect((await f.upload(makePdf(), 'a.pdf', f.as('member', null))).body.code).toBe(16023);
    });
  });

  describe('attaching to a request', () => {
    it('links up to five of my uploads; the request lists them', async () => {
      const files = [
        await f.uploadOk(makePdf(), '需求.pdf', f.as('member')),
        await f.uploadOk(makeXlsx(), '数据.xlsx', f.as('member')),
      ];
      const request = await f.ok(
        'create',
        validRequest({ attachment_ids: [files[0].id, files[1].id, files[0].id] }),
        f.as('member'),
      );
      expect(request.attachments.map((a) => a.name)).toEqual(['需求.pdf', '数据.xlsx']);
      expect(request.attachment_count).toBe(2);
    });

    it("refuses someone else's, another space's or an already used upload, and creates nothing", async () => {
      const admins = await f.uploadOk(makePdf(), 'admin.pdf', f.as('admin'));
      const strangers = await f.uploadOk(makePdf(), 'stranger.pdf', f.as('stranger', f.team.strangerTeamId));
      const mine = await f.uploadOk(makePdf(), 'mine.pdf', f.as('member'));
      await f.ok('create', validRequest({ attachment_ids: [mine.id] }), f.as('member'));
      const count = async () => (await f.ok<{ total: number }>('list', {}, f.as('member'))).total;
      const before = await count();
      for (const id of [admins.id, strangers.id, mine.id, 'not-a-uuid']) {
        expect((await f.call('create', validRequest({ attachment_ids: [id] }), f.as('member'))).code, id).toBe(
          NOT_FOUND,
        );
      }
      expect(await count()).toBe(before);
      // The admin's upload is still free for the admin.
      expect((await f.call('create', validRequest({ attachment_ids: [admins.id] }), f.as('admin'))).code).toBe(0);
    });
  });

  describe('download', () => {
    let request: RequestDetail;
    let pdf: Buffer;
    const name = '报价 "终版"; 2025\n.pdf';
    beforeAll(async () => {
      pdf = makePdf('Quote');
      const file = await f.uploadOk(pdf, name, f.as('member'));
      request = await f.ok('create', validRequest({ attachment_ids: [file.id] }), f.as('member'));
    });

    it('serves the bytes to every member of the space, as a download with the original name', async () => {
      const [file] = request.attachments;
      for (const who of ['member', 'admin', 'creator'] as const) {
        const res = await f.download(file.id, f.as(who));
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(pdf), who).toBe(true);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const disposition = String(res.headers['content-disposition']);
        expect(disposition).toMatch(/^attachment; filename="[^"\r\n]*"; filename\*=UTF-8''/);
        expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe('报价 "终版"; 2025.pdf');
      }
    });

    it('serves any space’s files to an operator', async () => {
      const res = await f.download(request.attachments[0].id, f.as('operator', null));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(pdf)).toBe(true);
    });

    it('answers strangers like a missing file, or 16023 for a team they are not in', async () => {
      const id = request.attachments[0].id;
      const foreign = await f.download(id, f.as('stranger', f.team.strangerTeamId));
      expect(foreign.json()).toMatchObject({ code: NOT_FOUND });
      expect(foreign.headers['content-disposition']).toBeUndefined();
      expect((await f.download(id, f.as('stranger'))).json()).toMatchObject({ code: 16023 });
      expect((await f.download(id, f.as('member', null))).json()).toMatchObject({ code: NOT_FOUND });
      expect((await f.download(id, { 'space-id': f.team.teamId })).json()).toMatchObject({ code: 10001 });
      expect((await f.download('00000000-0000-4000-8000-000000000000', f.as('member'))).json()).toMatchObject({
        code: NOT_FOUND,
      });
    });

    it('keeps an upload that is not yet submitted private to its uploader', async () => {
      const draft = await f.uploadOk(makePng(), 'draft.png', f.as('member'));
      expect((await f.download(draft.id, f.as('member'))).statusCode).toBe(200);
      expect((await f.download(draft.id, f.as('admin'))).json()).toMatchObject({ code: NOT_FOUND });
    });
  });
});
