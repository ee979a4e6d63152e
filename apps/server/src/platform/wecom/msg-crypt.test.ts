import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_CALLBACK_BODY_BYTES, openKfCallback, readKfMsgOrEvent } from './kf-callback.ts';
import { isEncodingAesKey, isFreshTimestamp, WecomCryptError, wecomCrypt } from './msg-crypt.ts';

// The vectors WeCom publishes with its WXBizMsgCrypt sample code (C#, Java, Python, PHP and Go
// samples all carry them): the keys, a URL check and a pushed message.
const official = {
  token: 'QDG6eK',
  encodingAesKey: 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C',
  receiveId: 'wx5823bf96d3bd56c7',
};
const urlCheck = {
  msg_signature: '5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3',
  timestamp: '1409659589',
  nonce: '263014780',
  echostr: 'P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==',
};
const push = {
  query: { msg_signature: '477715d11cdb4164915debcba66cb864d751f3e6', timestamp: '1409659813', nonce: '1372623149' },
  body: '<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName><Encrypt><![CDATA[RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==]]></Encrypt><AgentID><![CDATA[218]]></AgentID></xml>',
};

const crypt = wecomCrypt(official);
const reasonOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof WecomCryptError) return error.reason;
    throw error;
  }
  return 'accepted';
};

describe('WeCom callback encryption (WXBizMsgCrypt)', () => {
  it('answers the official URL check with the echostr’s plaintext', () => {
    expect(crypt.openEcho(urlCheck)).toBe('1616140317555161061');
  });

  it('opens the official pushed message', () => {
    const xml = openKfCallback(crypt, push.query, push.body);
    expect(xml.startsWith('<xml><ToUserName><![CDATA[wx5823bf96d3bd56c7]]></ToUserName>')).toBe(true);
    expect(xml).toContain('<MsgType><![CDATA[text]]></MsgType>');
    expect(xml).toContain('<AgentID>218</AgentID>');
  });

  it('signs as WeCom does: the official signatures come out of sign()', () => {
    expect(crypt.sign(urlCheck.timestamp, urlCheck.nonce, urlCheck.echostr)).toBe(urlCheck.msg_signature);
  });

  it('round-trips what it seals, counting the length in bytes (Chinese, emoji)', () => {
    const message = '<xml><Content><![CDATA[消息长度是按字节来算的 😀]]></Content></xml>';
    for (const random of [Buffer.alloc(16, 7), undefined]) {
      const sealed = crypt.seal(message, '1409659813', 'n1', random);
      const query = { msg_signature: sealed.msg_signature, timestamp: '1409659813', nonce: 'n1' };
      expect(crypt.openCallback(query, sealed.encrypt)).toBe(message);
    }
    // Every length of message pads to a whole number of 32-byte blocks, a full block included.
    for (let size = 0; size < 70; size++) {
      const message = 'x'.repeat(size);
      const sealed = crypt.seal(message, '1', '2');
      expect(Buffer.from(sealed.encrypt, 'base64').length % 32).toBe(0);
      expect(
        crypt.openCallback({ msg_signature: sealed.msg_signature, timestamp: '1', nonce: '2' }, sealed.encrypt),
      ).toBe(message);
    }
  });

  it('refuses a forged, replayed elsewhere or tampered callback, saying only why', () => {
    const sealed = crypt.seal('<xml/>', '100', 'n');
    const query = { msg_signature: sealed.msg_signature, timestamp: '100', nonce: 'n' };
    // The signature covers timestamp, nonce and ciphertext.
    expect(reasonOf(() => crypt.openCallback({ ...query, timestamp: '101' }, sealed.encrypt))).toBe('signature');
    expect(reasonOf(() => crypt.openCallback({ ...query, nonce: 'm' }, sealed.encrypt))).toBe('signature');
    expect(reasonOf(() => crypt.openCallback({ ...query, msg_signature: '' }, sealed.encrypt))).toBe('signature');
    expect(reasonOf(() => crypt.openEcho({ ...urlCheck, echostr: `${urlCheck.echostr.slice(0, -3)}A==` }))).toBe(
      'signature',
    );
    // Another token signs differently.
    const other = wecomCrypt({ ...official, token: 'other' });
    expect(reasonOf(() => other.openEcho(urlCheck))).toBe('signature');
    // The same keys for another corp: the receive id inside does not match.
    const elsewhere = wecomCrypt({ ...official, receiveId: 'ww-someone-else' });
    const signedForIt = elsewhere.sign(urlCheck.timestamp, urlCheck.nonce, urlCheck.echostr);
    expect(reasonOf(() => elsewhere.openEcho({ ...urlCheck, msg_signature: signedForIt }))).toBe('receive_id');
  });

  it('refuses ciphertexts that are not what it seals, even when correctly signed', () => {
    const signed = (encrypt: string) => ({ msg_signature: crypt.sign('1', '2', encrypt), timestamp: '1', nonce: '2' });
    const open = (encrypt: string) => reasonOf(() => crypt.openCallback(signed(encrypt), encrypt));
    const sealed = Buffer.from(crypt.seal('<xml/>', '1', '2').encrypt, 'base64');
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1] ^= 0xff; // the padding no longer reads as padding
    expect(open(flipped.toString('base64'))).toBe('ciphertext');
    expect(open(sealed.subarray(0, 16).toString('base64'))).toBe('ciphertext'); // shorter than a block of 32
    expect(open(sealed.subarray(0, 40).toString('base64'))).toBe('ciphertext'); // not whole AES blocks
    expect(open('not base64!')).toBe('ciphertext');
    expect(open('A'.repeat(1_000_004))).toBe('ciphertext');
    // Sealed by hand with the right key: a length field larger than what follows it, and padding
    // bytes that disagree with each other.
    const key = Buffer.from(`${official.encodingAesKey}=`, 'base64');
    const sealBytes = (plain: Buffer) => {
      const cipher = createCipheriv('aes-256-cbc', key, key.subarray(0, 16));
      cipher.setAutoPadding(false);
      return Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
    };
    const length = Buffer.alloc(4);
    length.writeUInt32BE(1_000, 0);
    const lying = Buffer.concat([Buffer.alloc(16), length, Buffer.from(`abc${official.receiveId}`)]);
    const pad = 32 - (lying.length % 32);
    expect(open(sealBytes(Buffer.concat([lying, Buffer.alloc(pad, pad)])))).toBe('ciphertext');
    const mixedPadding = Buffer.concat([Buffer.alloc(28, 1), Buffer.from([4, 4, 3, 4])]);
    expect(open(sealBytes(mixedPadding))).toBe('ciphertext');
  });

  it('refuses bodies that are not a flat <xml> envelope with an Encrypt element', () => {
    const open = (body: string) => reasonOf(() => openKfCallback(crypt, push.query, body));
    expect(open('')).toBe('envelope');
    expect(open('<xml><ToUserName>x</ToUserName></xml>')).toBe('envelope');
    expect(open('<!DOCTYPE x [<!ENTITY a "b">]><xml><Encrypt>&a;</Encrypt></xml>')).toBe('envelope');
    expect(open(`<xml><Encrypt>${'A'.repeat(MAX_CALLBACK_BODY_BYTES)}</Encrypt></xml>`)).toBe('envelope');
    expect(open(push.body.replace('<AgentID>', '<Encrypt>x</Encrypt><AgentID>'))).toBe('envelope');
  });

  it('checks keys and timestamps', () => {
    expect(isEncodingAesKey(official.encodingAesKey)).toBe(true);
    expect(isEncodingAesKey(official.encodingAesKey.slice(1))).toBe(false);
    expect(isEncodingAesKey(`${official.encodingAesKey.slice(1)}!`)).toBe(false);
    expect(() => wecomCrypt({ ...official, encodingAesKey: 'short' })).toThrow(/43/);
    const now = new Date(1_409_659_813_000);
    expect(isFreshTimestamp('1409659813', now)).toBe(true);
    expect(isFreshTimestamp('1409659513', now)).toBe(true);
    expect(isFreshTimestamp('1409659512', now)).toBe(false);
    expect(isFreshTimestamp('1409660114', now)).toBe(false);
    expect(isFreshTimestamp('14096598.13', now)).toBe(false);
    expect(isFreshTimestamp('', now)).toBe(false);
  });
});

describe('WeCom customer-service push', () => {
  const event = (fields: string) => `<xml><ToUserName><![CDATA[ww1234]]></ToUserName>${fields}</xml>`;
  const kf =
    '<CreateTime>1348831860</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event>' +
    '<Token><![CDATA[ENCApHxnGDNAVNY4AaSJKj4Tb5mwsEMzxhFmHVGcra996NR]]></Token><OpenKfId><![CDATA[wkAJ2GCAAAZSfhHCt7IFSvLKtMPxyJTw]]></OpenKfId>';

  it('reads kf_msg_or_event, sealed and opened like a real push', () => {
    const sealed = crypt.seal(event(kf), '1348831860', 'abc');
    const body = `<xml><ToUserName><![CDATA[${official.receiveId}]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[]]></AgentID></xml>`;
    const xml = openKfCallback(
      crypt,
      { msg_signature: sealed.msg_signature, timestamp: '1348831860', nonce: 'abc' },
      body,
    );
    expect(readKfMsgOrEvent(xml)).toEqual({
      corpId: 'ww1234',
      openKfId: 'wkAJ2GCAAAZSfhHCt7IFSvLKtMPxyJTw',
      syncToken: 'ENCApHxnGDNAVNY4AaSJKj4Tb5mwsEMzxhFmHVGcra996NR',
      createTime: 1348831860,
    });
  });

  it('ignores other pushes and malformed ones', () => {
    expect(readKfMsgOrEvent(event(kf.replace('kf_msg_or_event', 'change_contact')))).toBeNull();
    expect(
      readKfMsgOrEvent(event(kf.replace('<OpenKfId><![CDATA[wkAJ2GCAAAZSfhHCt7IFSvLKtMPxyJTw]]></OpenKfId>', ''))),
    ).toBeNull();
    expect(readKfMsgOrEvent(event(kf.replace('1348831860', 'soon')))).toBeNull();
    expect(readKfMsgOrEvent('<xml><MsgType>event</MsgType><MsgType>event</MsgType></xml>')).toBeNull();
    expect(readKfMsgOrEvent('not xml')).toBeNull();
  });
});
