import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Tencent Cloud FaceID (faceid.tencentcloudapi.com, API 3.0, 2018-03-01):
 * DetectAuth and GetDetectInfoEnhanced. It checks the TC3-HMAC-SHA256 signature with its own
 * implementation of the documented algorithm (deliberately not the client's helpers, so a shared
 * bug cannot pass unnoticed), rebuilding the canonical request from the headers it really received.
 */

export interface FakeTencentFaceIdOptions {
  secretId?: string;
  secretKey?: string;
  ruleId?: string;
  /** The fake's clock, for the 5-minute timestamp window. */
  now?: () => Date;
}

export type FakeOutcome = { result: 'pass' } | { result: 'fail'; errCode?: number; message?: string } | 'pending';

export interface FakeCheck {
  bizToken: string;
  ruleId: string;
  name: string;
  idCard: string;
  redirectUrl: string;
  extra: string;
  outcome: FakeOutcome;
}

export interface FakeTencentRequest {
  action: string;
  body: Record<string, unknown>;
  /** The error code the fake answered, or 'OK'. */
  answer: string;
}

export interface FakeTencentFaceId {
  url: string;
  secretId: string;
  secretKey: string;
  ruleId: string;
  requests: FakeTencentRequest[];
  checks: Map<string, FakeCheck>;
  /** The check DetectAuth opened most recently. */
  lastCheck(): FakeCheck | undefined;
  /** What the person did on Tencent's page for this BizToken. */
  decide(bizToken: string, outcome: FakeOutcome): void;
  /** The next well-signed request answers this API error. */
  failNext(code: string, message?: string): void;
  close(): Promise<void>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const mac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

interface Verdict {
  code: string;
  message: string;
}

const isVerdict = (value: Verdict | Record<string, unknown>): value is Verdict =>
  typeof value.code === 'string' && typeof value.message === 'string';

function checkSignature(
  req: IncomingMessage,
  rawBody: Buffer,
  keys: { secretId: string; secretKey: string },
  nowSeconds: number,
): Verdict | undefined {
  const authorization = req.headers.authorization ?? '';
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return { code: 'AuthFailure.InvalidAuthorization', message: 'Authorization header is malformed.' };
  const [, secretId, date, service, signedHeaders, signature] = match;

  const timestamp = Number(req.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp)) return { code: 'MissingParameter', message: 'X-TC-Timestamp is required.' };
  if (Math.abs(nowSeconds - timestamp) > 300) {
    return { code: 'AuthFailure.SignatureExpire', message: 'Signature expired: more than 5 minutes from now.' };
  }
  if (secretId !== keys.secretId) return { code: 'AuthFailure.SecretIdNotFound', message: 'SecretId not found.' };
  const utcDay = new Date(timestamp * 1000).toISOString().slice(0, 10);
  if (date !== utcDay || service !== 'faceid') {
    return { code: 'AuthFailure.InvalidAuthorization', message: 'Credential scope does not match.' };
  }
  const names = signedHeaders.split(';');
  if (!names.includes('content-type') || !names.includes('host')) {
    return { code: 'AuthFailure.InvalidAuthorization', message: 'content-type and host must be signed.' };
  }

  let canonicalHeaders = '';
  for (const name of [...names].sort()) {
    const value = req.headers[name];
    if (typeof value !== 'string') return { code: 'AuthFailure.InvalidAuthorization', message: `${name} is missing.` };
    canonicalHeaders += `${name}:${value.trim().toLowerCase()}\n`;
  }
  const canonicalRequest = `${req.method}\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${sha256(rawBody)}`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonicalRequest)}`;
  const signingKey = mac(mac(mac(`TC3${keys.secretKey}`, date), service), 'tc3_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  if (expected !== signature) {
    return { code: 'AuthFailure.SignatureFailure', message: 'The provided credentials could not be validated.' };
  }
  return undefined;
}

export async function startFakeTencentFaceId(options: FakeTencentFaceIdOptions = {}): Promise<FakeTencentFaceId> {
  const keys = {
    secretId: options.secretId ?? 'AKIDfakeSecretId0000000000000000',
    secretKey: options.secretKey ?? 'fakeSecretKey000000000000000000',
  };
  const ruleId = options.ruleId ?? '1';
  const now = options.now ?? (() => new Date());
  const requests: FakeTencentRequest[] = [];
  const checks = new Map<string, FakeCheck>();
  let nextError: Verdict | undefined;
  let url = '';

  const reply = (res: ServerResponse, request: FakeTencentRequest, data: Record<string, unknown>) => {
    requests.push(request);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ Response: { ...data, RequestId: randomUUID() } }));
  };
  const fail = (res: ServerResponse, request: Omit<FakeTencentRequest, 'answer'>, verdict: Verdict) =>
    reply(res, { ...request, answer: verdict.code }, { Error: { Code: verdict.code, Message: verdict.message } });

  function detectAuth(body: Record<string, unknown>): Verdict | Record<string, unknown> {
    if (body.RuleId !== ruleId) return { code: 'InvalidParameterValue.RuleIdNotExist', message: 'RuleId not found.' };
    if (typeof body.IdCard !== 'string' || typeof body.Name !== 'string' || !body.IdCard || !body.Name) {
      return { code: 'InvalidParameter', message: 'IdCard and Name are required for this rule.' };
    }
    const bizToken = randomUUID().toUpperCase();
    checks.set(bizToken, {
      bizToken,
      ruleId,
      name: body.Name,
      idCard: body.IdCard,
      redirectUrl: typeof body.RedirectUrl === 'string' ? body.RedirectUrl : '',
      extra: typeof body.Extra === 'string' ? body.Extra : '',
      outcome: 'pending',
    });
    return { Url: `${url}/h5/${bizToken}`, BizToken: bizToken };
  }

  function detectInfo(body: Record<string, unknown>): Verdict | Record<string, unknown> {
    const check = typeof body.BizToken === 'string' ? checks.get(body.BizToken) : undefined;
    if (!check) return { code: 'InvalidParameterValue.BizTokenIllegal', message: 'BizToken is illegal.' };
    if (body.RuleId !== check.ruleId) {
      return { code: 'InvalidParameterValue.RuleIdNotExist', message: 'RuleId not found.' };
    }
    const outcome = check.outcome;
    if (outcome === 'pending') return { Text: null, IdCardData: null, BestFrame: null };
    const passed = outcome.result === 'pass';
    return {
      Text: {
        ErrCode: passed ? 0 : (outcome.errCode ?? 1001),
        ErrMsg: passed ? '成功' : (outcome.message ?? '比对失败'),
        IdCard: check.idCard,
        Name: check.name,
        LiveStatus: passed ? 0 : outcome.errCode,
      },
      IdCardData: null,
      BestFrame: null,
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const action = String(req.headers['x-tc-action'] ?? '');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8') || '{}');
      } catch {
        return fail(res, { action, body }, { code: 'InvalidParameter', message: 'Body is not JSON.' });
      }
      const request = { action, body };
      if (req.method !== 'POST' || req.url !== '/') {
        return fail(res, request, { code: 'InvalidAction', message: 'Only POST / is served.' });
      }
      if (!String(req.headers['content-type']).startsWith('application/json')) {
        return fail(res, request, { code: 'InvalidParameter', message: 'Content-Type must be application/json.' });
      }
      const bad = checkSignature(req, raw, keys, Math.floor(now().getTime() / 1000));
      if (bad) return fail(res, request, bad);
      if (req.headers['x-tc-version'] !== '2018-03-01') {
        return fail(res, request, { code: 'InvalidParameter', message: 'Unknown X-TC-Version.' });
      }
      if (nextError) {
        const error = nextError;
        nextError = undefined;
        return fail(res, request, error);
      }
      const answer =
        action === 'DetectAuth'
          ? detectAuth(body)
          : action === 'GetDetectInfoEnhanced'
            ? detectInfo(body)
            : { code: 'InvalidAction', message: `${action} is not served by the fake.` };
      if (isVerdict(answer)) return fail(res, request, answer);
      reply(res, { ...request, answer: 'OK' }, answer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    ...keys,
    ruleId,
    requests,
    checks,
    lastCheck: () => [...checks.values()].at(-1),
    decide(bizToken, outcome) {
      const check = checks.get(bizToken);
      if (!check) throw new Error(`no check ${bizToken}`);
      check.outcome = outcome;
    },
    failNext(code, message = 'Injected by the test.') {
      nextError = { code, message };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
