import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startFakeWechatApi } from '../../testing/fake-wechat-api.ts';
import { parseWechatScanEvent, verifyWechatSignature } from './wechat-callback.ts';

const sign = (...parts: string[]) => createHash('sha1').update(parts.sort().join('')).digest('hex');

describe('verifyWechatSignature', () => {
  const token = 'callback-token';
  const timestamp = '1700000000';
  const nonce = '123456789';

  it('accepts the sha1 of the sorted token, timestamp and nonce', () => {
    // Sorted order here is nonce, timestamp, token; a join in the given order would differ.
    expect(sign(token, timestamp, nonce)).toBe(createHash('sha1').update(`${nonce}${timestamp}${token}`).digest('hex'));
    expect(verifyWechatSignature({ token, timestamp, nonce, signature: sign(token, timestamp, nonce) })).toBe(true);
  });

  it('rejects wrong, truncated, differently cased or missing signatures', () => {
    const good = sign(token, timestamp, nonce);
    expect(verifyWechatSignature({ token: 'other', timestamp, nonce, signature: good })).toBe(false);
    expect(verifyWechatSignature({ token, timestamp: '1700000001', nonce, signature: good })).toBe(false);
    expect(verifyWechatSignature({ token, timestamp, nonce, signature: good.slice(1) })).toBe(false);
    expect(verifyWechatSignature({ token, timestamp, nonce, signature: good.toUpperCase() })).toBe(false);
    expect(verifyWechatSignature({ token, timestamp, nonce, signature: undefined })).toBe(false);
    expect(verifyWechatSignature({ token, timestamp: undefined, nonce, signature: good })).toBe(false);
    expect(verifyWechatSignature({ token: '', timestamp, nonce, signature: sign('', timestamp, nonce) })).toBe(false);
  });
});

const event = (fields: Record<string, string>) =>
  `<xml>${Object.entries(fields)
    .map(([k, v]) => `<${k}><![CDATA[${v}]]></${k}>`)
    .join('')}</xml>`;

const base = { ToUserName: 'gh_abc', FromUserName: 'oOPENID123', MsgType: 'event' };

describe('parseWechatScanEvent', () => {
  it('reads a subscribe-through-QR event and strips qrscene_', () => {
    const xml = event({ ...base, Event: 'subscribe', EventKey: 'qrscene_login_abc', Ticket: 'TICKET' });
    expect(parseWechatScanEvent(xml)).toEqual({ openid: 'oOPENID123', sceneStr: 'login_abc', event: 'subscribe' });
  });

  it('reads a SCAN event as is, with WeChat-style layout and plain-text values', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
      <xml>
        <ToUserName><![CDATA[gh_abc]]></ToUserName>
        <FromUserName>oOPENID&amp;123</FromUserName>
        <CreateTime>1700000000</CreateTime>
        <MsgType>event</MsgType>
        <Event><![CDATA[SCAN]]></Event>
        <EventKey> login_xyz </EventKey>
        <Ticket><![CDATA[TICKET]]></Ticket>
      </xml>`;
    expect(parseWechatScanEvent(xml)).toEqual({ openid: 'oOPENID&123', sceneStr: 'login_xyz', event: 'SCAN' });
  });

  it('ignores other messages and events, and a plain follow without a scene', () => {
    expect(parseWechatScanEvent(event({ ...base, Event: 'unsubscribe', EventKey: '' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, Event: 'CLICK', EventKey: 'menu' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, MsgType: 'text', Content: 'hi' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, Event: 'subscribe' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, Event: 'subscribe', EventKey: '' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, Event: 'subscribe', EventKey: 'qrscene_' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, Event: 'SCAN', EventKey: '' }))).toBeNull();
    expect(parseWechatScanEvent(event({ ...base, FromUserName: '', Event: 'SCAN', EventKey: 'x' }))).toBeNull();
  });

  it('rejects DOCTYPE/ENTITY declarations (XXE)', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY e SYSTEM "file:///etc/passwd">]>${event({
      ...base,
      Event: 'SCAN',
      EventKey: 'x',
    }).replace('oOPENID123', '&e;')}`;
    expect(parseWechatScanEvent(xxe)).toBeNull();
    expect(parseWechatScanEvent(`<!entity x "y">${event({ ...base, Event: 'SCAN', EventKey: 'x' })}`)).toBeNull();
  });

  it('rejects ambiguous or malformed documents', () => {
    const dup = event({ ...base, Event: 'SCAN', EventKey: 'a' }).replace('</xml>', '<EventKey>b</EventKey></xml>');
    expect(parseWechatScanEvent(dup)).toBeNull();
    const smuggled = event({ ...base, Event: 'SCAN', EventKey: 'a' }).replace(
      '<xml>',
      '<xml><Wrap><Event>SCAN</Event></Wrap>',
    );
    expect(parseWechatScanEvent(smuggled)).toBeNull();
    expect(parseWechatScanEvent('not xml')).toBeNull();
    expect(parseWechatScanEvent(`${event({ ...base, Event: 'SCAN', EventKey: 'a' })}<xml></xml>`)).toBeNull();
    expect(parseWechatScanEvent(' '.repeat(100_000))).toBeNull();
  });
});

describe('fake WeChat scan push', () => {
  it('posts a signed event that our helpers accept', async () => {
    const seen: unknown[] = [];
    const callback = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://callback');
      let xml = '';
      req.on('data', (chunk: Buffer) => {
        xml += chunk.toString('utf8');
      });
      req.on('end', () => {
        const q = url.searchParams;
        const ok = verifyWechatSignature({
          token: 'cb-token',
          timestamp: q.get('timestamp') ?? undefined,
          nonce: q.get('nonce') ?? undefined,
          signature: q.get('signature') ?? undefined,
        });
        const scan = ok ? parseWechatScanEvent(xml) : null;
        seen.push({ ok, scan, openidParam: q.get('openid') });
        res.writeHead(ok ? 200 : 401).end(ok ? 'success' : '');
      });
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/wechat/callback`;
    const wechat = await startFakeWechatApi();
    try {
      const pushed = await wechat.scan({
        callbackUrl,
        callbackToken: 'cb-token',
        sceneStr: 's1',
        openid: 'o1',
        event: 'subscribe',
      });
      expect(pushed).toEqual({ status: 200, body: 'success' });
      await wechat.scan({ callbackUrl, callbackToken: 'cb-token', sceneStr: 's2', openid: 'o2', event: 'SCAN' });
      const forged = await wechat.scan({
        callbackUrl,
        callbackToken: 'not-ours',
        sceneStr: 's3',
        openid: 'o3',
        event: 'SCAN',
      });
      expect(forged.status).toBe(401);
      expect(seen).toEqual([
        { ok: true, scan: { openid: 'o1', sceneStr: 's1', event: 'subscribe' }, openidParam: 'o1' },
        { ok: true, scan: { openid: 'o2', sceneStr: 's2', event: 'SCAN' }, openidParam: 'o2' },
        { ok: false, scan: null, openidParam: 'o3' },
      ]);
    } finally {
      await wechat.close();
      await new Promise<void>((resolve) => callback.close(() => resolve()));
    }
  });
});
