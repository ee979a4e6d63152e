import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTencentFaceId, startFakeTencentFaceId } from '../../testing/fake-tencent-faceid.ts';
import { RealNameProviderError } from './realname-provider.ts';
import {
  createTencentFaceIdProvider,
  type Tc3Request,
  tc3Authorization,
  tc3CanonicalRequest,
  tc3Date,
  tc3StringToSign,
} from './tencent-faceid.ts';

/**
 * The worked example of Tencent Cloud's "Signature v3" (签名方法 v3) page: CVM DescribeInstances in
 * ap-guangzhou at X-TC-Timestamp 1551113065, signing content-type and host only.
 */
const DOC_EXAMPLE: Tc3Request = {
  host: 'cvm.tencentcloudapi.com',
  service: 'cvm',
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  timestamp: 1551113065,
};

describe('TC3-HMAC-SHA256 signing', () => {
  it('reproduces the documented canonical request and string to sign', () => {
    expect(tc3CanonicalRequest(DOC_EXAMPLE).canonical).toBe(
      [
        'POST',
        '/',
        '',
        'content-type:application/json; charset=utf-8',
        'host:cvm.tencentcloudapi.com',
        '',
        'content-type;host',
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
      ].join('\n'),
    );
    expect(tc3StringToSign(DOC_EXAMPLE)).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n' +
        '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
  });

  // The English page (SecretKey Gu5t9xGARNpq86cd98joQYCN3EXAMPLE) and the later Chinese page, which
  // masks the demo key as Gu5t9xGARNpq86cd98joQYCN3******* and signs with that literal string.
  it('reproduces both published signatures of the example', () => {
    expect(
      tc3Authorization(DOC_EXAMPLE, 'AKID**********************0123456789EXAMPLE', 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE'),
    ).toBe(
      'TC3-HMAC-SHA256 Credential=AKID**********************0123456789EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
    expect(
      tc3Authorization(DOC_EXAMPLE, 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******', 'Gu5t9xGARNpq86cd98joQYCN3*******'),
    ).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('takes the scope date in UTC (00:44 on 26 Feb in Beijing is still 25 Feb)', () => {
    expect(tc3Date(1551113065)).toBe('2019-02-25');
  });

  it('signs extra headers in sorted, lowercase form', () => {
    const { canonical, signedHeaders } = tc3CanonicalRequest({
      ...DOC_EXAMPLE,
      extraHeaders: { 'X-TC-Action': 'DescribeInstances' },
    });
    expect(signedHeaders).toBe('content-type;host;x-tc-action');
    expect(canonical).toContain('host:cvm.tencentcloudapi.com\nx-tc-action:describeinstances\n\n');
  });
});

describe('createTencentFaceIdProvider against the fake FaceID', () => {
  let fake: FakeTencentFaceId;
  beforeEach(async () => {
    fake = await startFakeTencentFaceId({ ruleId: '7' });
  });
  afterEach(() => fake.close());

  const provider = (overrides: Partial<Parameters<typeof createTencentFaceIdProvider>[0]> = {}) =>
    createTencentFaceIdProvider({
      endpoint: fake.url,
      secretId: fake.secretId,
      secretKey: fake.secretKey,
      ruleId: '7',
      ...overrides,
    });
  const input = {
    attemptId: '4f6b2a53-5f2e-4c9e-9d55-2d8f2b1d0c11',
    name: '张三',
    idNumber: '11010519491231002X',
    redirectUrl: 'http://localhost:3000/account/faceid',
  };

  it('opens a check with a signed DetectAuth the fake accepts', async () => {
    const { token, url } = await provider().start(input);
    expect(fake.requests.at(-1)).toMatchObject({ action: 'DetectAuth', answer: 'OK' });
    expect(url).toBe(`${fake.url}/h5/${token}`);
    expect(fake.checks.get(token)).toMatchObject({
      name: '张三',
      idCard: '11010519491231002X',
      redirectUrl: input.redirectUrl,
      extra: input.attemptId,
    });
  });

  it('reads pending, then pass; and a failure with Tencent’s message', async () => {
    const tencent = provider();
    const first = await tencent.start(input);
    expect(await tencent.result(first.token)).toEqual({ state: 'pending' });
    fake.decide(first.token, { result: 'pass' });
    expect(await tencent.result(first.token)).toEqual({ state: 'verified' });
    expect(fake.requests.at(-1)).toMatchObject({
      action: 'GetDetectInfoEnhanced',
      body: { BizToken: first.token, RuleId: '7', InfoType: '1' },
    });

    const second = await tencent.start(input);
    fake.decide(second.token, { result: 'fail', errCode: 1005, message: '身份证号与姓名不匹配' });
    expect(await tencent.result(second.token)).toEqual({ state: 'failed', reason: '身份证号与姓名不匹配' });
  });

  it('is refused with a wrong key or an unknown SecretId', async () => {
    const wrongKey = await provider({ secretKey: 'not-the-key' })
      .start(input)
      .catch((e: unknown) => e);
    expect(wrongKey).toBeInstanceOf(RealNameProviderError);
    expect(wrongKey).toMatchObject({ vendorCode: 'AuthFailure.SignatureFailure' });
    expect(fake.checks.size).toBe(0);

    await expect(provider({ secretId: 'AKIDother' }).result('X')).rejects.toMatchObject({
      vendorCode: 'AuthFailure.SecretIdNotFound',
    });
  });

  it('is refused when its clock is more than five minutes off', async () => {
    const slow = provider({ now: () => new Date(Date.now() - 10 * 60_000) });
    await expect(slow.start(input)).rejects.toMatchObject({ vendorCode: 'AuthFailure.SignatureExpire' });
  });

  it('throws API errors, keeping the name and ID number out of the message', async () => {
    fake.failNext('InvalidParameter', `IdCard ${input.idNumber} and Name ${input.name} do not match the rule`);
    const error = (await provider()
      .start(input)
      .catch((e: unknown) => e)) as RealNameProviderError;
    expect(error).toMatchObject({ name: 'RealNameProviderError', vendorCode: 'InvalidParameter' });
    expect(error.message).not.toContain(input.idNumber);
    expect(error.message).not.toContain(input.name);

    fake.failNext('UnauthorizedOperation.Arrears', 'The account is in arrears.');
    await expect(provider().result('X')).rejects.toMatchObject({ vendorCode: 'UnauthorizedOperation.Arrears' });
    await expect(provider({ ruleId: '8' }).start(input)).rejects.toMatchObject({
      vendorCode: 'InvalidParameterValue.RuleIdNotExist',
    });
  });

  it('reports an expired BizToken as a failed check, not an outage', async () => {
    const { token } = await provider().start(input);
    fake.failNext('InvalidParameterValue.BizTokenExpired', 'BizToken expired.');
    expect(await provider().result(token)).toMatchObject({ state: 'failed', reason: expect.stringContaining('过期') });
  });

  it('maps an unreachable endpoint, a timeout and a non-JSON gateway answer to RealNameProviderError', async () => {
    const gone = await startFakeTencentFaceId();
    await gone.close();
    await expect(provider({ endpoint: gone.url }).result('X')).rejects.toThrow(/unreachable/);

    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    await expect(provider({ fetch: hang, timeoutMs: 100 }).result('X')).rejects.toThrow(/within 100 ms/);

    const gateway: typeof fetch = async () => new Response('<html>Bad Gateway</html>', { status: 502 });
    await expect(provider({ fetch: gateway }).result('X')).rejects.toMatchObject({ vendorCode: 'HTTP_502' });
  });
});
