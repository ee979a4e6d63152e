import { authRoutes, type Envelope } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsInbox, createTestApp, type TestApp } from '../../testing/test-app.ts';

// The SMS caps (docs/auth.md, SMS codes): a number is slowed down by a growing wait, never shut out
// for the day, and a client address (an IPv6 /64) has a hard daily cap.

const SEND = authRoutes.sendSms.path;
const BY_SMS = authRoutes.bySms.path;
const MAX_WAIT = 900;

describe('SMS caps a stranger cannot use against a number’s owner', () => {
  let t: TestApp;
  let clock = Date.now();
  const inbox = createSmsInbox();
  const later = (seconds: number) => {
    clock += seconds * 1000;
  };
  let stranger = 0;
  /** A different address each call, IPv4 and IPv6 in turn, as someone renting many would have. */
  const strangerAddress = () => {
    stranger += 1;
    return stranger % 2 ? `198.51.${stranger >> 8}.${stranger & 255}` : `2001:db8:${stranger}::1`;
  };
  const post = async (url: string, body: unknown, remoteAddress: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/json', language: 'en' },
      payload: JSON.stringify(body),
    });
    return res.json() as Envelope<{ login_token: string }>;
  };

  beforeAll(async () => {
    t = await createTestApp({ sms: inbox, now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('lets the owner get a code within the longest wait however many codes strangers asked for', async () => {
    const owner = '13900000101';
    // Two hours of a stranger asking for the owner's number every 10 s, each time from a new address.
    let sentForStranger = 0;
    for (let elapsed = 0; elapsed < 7200; elapsed += 10) {
      const res = await post(SEND, { phone: owner, type: 'login' }, strangerAddress());
      if (res.code === 0) sentForStranger += 1;
      else {
        expect([40007, 40011]).toContain(res.code);
        expect(res.retry_after).toBeLessThanOrEqual(MAX_WAIT);
      }
      later(10);
    }
    // The number was slowed down (the old cap of 10 a day would have shut it out after 10 codes).
    expect(sentForStranger).toBeGreaterThan(10);
    expect(sentForStranger).toBeLessThan(20);

    const first = await post(SEND, { phone: owner, type: 'login' }, '203.0.113.9');
    if (first.code !== 0) {
      expect(first).toMatchObject({ code: 40011 });
      expect(first.retry_after).toBeLessThanOrEqual(MAX_WAIT);
      later(first.retry_after ?? 0);
      expect((await post(SEND, { phone: owner, type: 'login' }, '203.0.113.9')).code).toBe(0);
    }
    const signedIn = await post(BY_SMS, { phone: owner, code: inbox.last(owner) }, '203.0.113.9');
    expect(signedIn.code).toBe(0);
    expect(signedIn.data.login_token).toBeTruthy();
  });

  it('bounds the bill: at most 103 codes reach one number in 24 h, however many addresses ask', async () => {
    const target = '13900000102';
    later(86_400);
    const sentBefore = inbox.sent;
    const start = clock;
    // A stranger who asks again the very second each wait ends.
    while (clock - start < 86_400_000) {
      const res = await post(SEND, { phone: target, type: 'login' }, strangerAddress());
      later(res.code === 0 ? 0 : (res.retry_after ?? 1));
    }
    expect(inbox.sent - sentBefore).toBe(103);
  });

  it('sends one code when requests for one number arrive together', async () => {
    later(86_400);
    const phone = '13900000103';
    const sentBefore = inbox.sent;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(SEND, { phone, type: 'login' }, strangerAddress())),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([0, 40007, 40007, 40007, 40007, 40007]);
    expect(inbox.sent - sentBefore).toBe(1);
  });
});

describe('SMS cap per client address', () => {
  let t: TestApp;
  const send = async (phone: string, remoteAddress: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: SEND,
      remoteAddress,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ phone, type: 'login' }),
    });
    return { envelope: res.json() as Envelope, retryAfter: res.headers['retry-after'] };
  };

  afterAll(() => t?.close());

  it('counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4 address', async () => {
    t = await createTestApp({ env: { SMS_DAILY_LIMIT_PER_IP: '2' } });
    expect((await send('13700000201', '2001:db8:1:2::1')).envelope.code).toBe(0);
    expect((await send('13700000202', '2001:db8:1:2:ffff:ffff:ffff:fffe')).envelope.code).toBe(0);
    const capped = await send('13700000203', '2001:db8:1:2:abcd::9');
    expect(capped.envelope).toMatchObject({ code: 40009 });
    // The cap's window opened with the first code; the answer says when it closes.
    expect(capped.envelope.retry_after).toBeGreaterThan(86_000);
    expect(capped.retryAfter).toBe(String(capped.envelope.retry_after));
    // The next /64 is another subscriber.
    expect((await send('13700000203', '2001:db8:1:3::1')).envelope.code).toBe(0);

    expect((await send('13700000204', '198.51.100.7')).envelope.code).toBe(0);
    expect((await send('13700000205', '::ffff:198.51.100.7')).envelope.code).toBe(0);
    expect((await send('13700000206', '198.51.100.7')).envelope.code).toBe(40009);
    await t.close();
  });

  it('reads the client address from X-Forwarded-For only with TRUST_PROXY', async () => {
    t = await createTestApp({ env: { SMS_DAILY_LIMIT_PER_IP: '1', TRUST_PROXY: 'true' } });
    const via = (address: string) => ({ 'x-forwarded-for': address });
    expect((await send('13700000211', '10.0.0.1', via('2001:db8:9:9::1'))).envelope.code).toBe(0);
    expect((await send('13700000212', '10.0.0.1', via('2001:db8:9:9::2'))).envelope.code).toBe(40009);
    expect((await send('13700000213', '10.0.0.1', via('2001:db8:9:8::1'))).envelope.code).toBe(0);
    await t.close();

    t = await createTestApp({ env: { SMS_DAILY_LIMIT_PER_IP: '1' } });
    expect((await send('13700000214', '10.0.0.1', via('2001:db8:9:9::1'))).envelope.code).toBe(0);
    // Without a trusted proxy the header is anyone's to write: the socket's address counts.
    expect((await send('13700000215', '10.0.0.1', via('2001:db8:7:7::1'))).envelope.code).toBe(40009);
  });
});
