import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAliyunSms, startFakeAliyunSms } from '../../testing/fake-aliyun-sms.ts';
import {
  aliyunStringToSign,
  createAliyunSmsProvider,
  formatAliyunTimestamp,
  percentEncode,
  signAliyunRpc,
} from './aliyun-sms.ts';
import { SmsSendError } from './sms-provider.ts';

describe('Aliyun RPC signing helpers', () => {
  it("percent-encodes per RFC 3986 (space %20, * %2A, ~ literal, !'() encoded)", () => {
    expect(percentEncode("a b*c~d+e/f!g'h(i)j")).toBe('a%20b%2Ac~d%2Be%2Ff%21g%27h%28i%29j');
    expect(percentEncode('阿里云')).toBe('%E9%98%BF%E9%87%8C%E4%BA%91');
    expect(percentEncode('2016-02-23T12:46:24Z')).toBe('2016-02-23T12%3A46%3A24Z');
  });

  // Official example from Alibaba Cloud's RPC "signature mechanism" docs (ECS DescribeRegions,
  // AccessKeyId testid, AccessKeySecret testsecret): https://developer.aliyun.com/ask/210168
  it('reproduces the documented DescribeRegions vector exactly', () => {
    const params = {
      TimeStamp: '2016-02-23T12:46:24Z',
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      Version: '2014-05-26',
      SignatureVersion: '1.0',
    };
    expect(aliyunStringToSign(params)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26TimeStamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
    expect(signAliyunRpc(params, 'testsecret')).toBe('CT9X0VtwR86fNWSnsc6v8YGOjuE=');
  });

  it('formats timestamps as UTC without milliseconds', () => {
    expect(formatAliyunTimestamp(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)))).toBe('2024-01-02T03:04:05Z');
  });
});

describe('createAliyunSmsProvider against the fake Aliyun', () => {
  let fake: FakeAliyunSms;
  beforeEach(async () => {
    fake = await startFakeAliyunSms({ signName: '雅典娜(测试)', templateCode: 'SMS_123456789' });
  });
  afterEach(async () => {
    await fake.close();
  });

  const provider = (overrides: Partial<Parameters<typeof createAliyunSmsProvider>[0]> = {}) =>
    createAliyunSmsProvider({
      endpoint: fake.url,
      accessKeyId: fake.accessKeyId,
      accessKeySecret: fake.accessKeySecret,
      signName: '雅典娜(测试)',
      templateCode: 'SMS_123456789',
      ...overrides,
    });

  it('sends a correctly signed SendSms request and the fake delivers the code', async () => {
    const sms = provider({ now: () => new Date('2025-03-04T05:06:07.890Z') });
    expect(sms.name).toBe('aliyun');
    await sms.sendCode('13800000000', '246810');

    expect(fake.lastCode('13800000000')).toBe('246810');
    expect(fake.sends).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.code).toBe('OK');
    expect(request.query).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      Format: 'JSON',
      RegionId: 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Timestamp: '2025-03-04T05:06:07Z',
      TemplateParam: '{"code":"246810"}',
      PhoneNumbers: '13800000000',
    });
  });

  it('uses a fresh nonce per request (a reused nonce is refused by Aliyun)', async () => {
    const sms = provider();
    await sms.sendCode('13800000000', '111111');
    await sms.sendCode('13800000000', '222222');
    expect(fake.lastCode('13800000000')).toBe('222222');
    const nonces = fake.requests.map((r) => r.query.SignatureNonce);
    expect(new Set(nonces).size).toBe(2);

    const fixed = provider({ nonce: () => 'same-nonce' });
    await fixed.sendCode('13800000000', '333333');
    await expect(fixed.sendCode('13800000000', '444444')).rejects.toMatchObject({ vendorCode: 'SignatureNonceUsed' });
  });

  it('maps a wrong secret to SmsSendError(SignatureDoesNotMatch) and never puts the secret on the wire', async () => {
    const urls: string[] = [];
    const spy: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    const error = await provider({ accessKeySecret: 'wrong-secret-value', fetch: spy })
      .sendCode('13800000000', '246810')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect(error).toMatchObject({ vendorCode: 'SignatureDoesNotMatch' });
    expect(fake.requests[0].status).toBe(400);
    expect(fake.sends).toHaveLength(0);
    expect(urls.join()).not.toContain('wrong-secret-value');
    expect(String((error as Error).message)).not.toContain('wrong-secret-value');
  });

  it('maps a business-limit answer to SmsSendError(isv.BUSINESS_LIMIT_CONTROL)', async () => {
    fake.failNextSend();
    await expect(provider().sendCode('13800000000', '246810')).rejects.toMatchObject({
      name: 'SmsSendError',
      vendorCode: 'isv.BUSINESS_LIMIT_CONTROL',
    });
    expect(fake.sends).toHaveLength(0);
  });

  it('reports an unapproved template with the vendor code', async () => {
    await expect(provider({ templateCode: 'SMS_000' }).sendCode('13800000000', '1')).rejects.toMatchObject({
      vendorCode: 'isv.SMS_TEMPLATE_ILLEGAL',
    });
  });

  it('times out a silent endpoint', async () => {
    fake.hangNextRequest();
    const error = await provider({ timeoutMs: 150 })
      .sendCode('13800000000', '246810')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect((error as Error).message).toMatch(/did not answer within 150 ms/);
  });

  it('reports an unreachable endpoint', async () => {
    const gone = await startFakeAliyunSms();
    await gone.close();
    const error = await provider({ endpoint: gone.url })
      .sendCode('13800000000', '246810')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsSendError);
    expect((error as Error).message).toMatch(/unreachable/);
  });

  it('maps a non-JSON gateway error to its HTTP status', async () => {
    const gateway: typeof fetch = async () => new Response('<html>Bad Gateway</html>', { status: 502 });
    await expect(provider({ fetch: gateway }).sendCode('13800000000', '1')).rejects.toMatchObject({
      vendorCode: 'HTTP_502',
    });
  });
});
