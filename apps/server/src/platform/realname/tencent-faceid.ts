import { createHash, createHmac } from 'node:crypto';
import { type RealNameProvider, RealNameProviderError, type RealNameResult } from './realname-provider.ts';

/**
 * Tencent Cloud FaceID (人脸核身, API 2018-03-01), H5 flow: DetectAuth opens a check for a name and
 * ID number and returns a BizToken and the page URL; GetDetectInfoEnhanced tells the outcome.
 * Requests are API 3.0 POST JSON signed with TC3-HMAC-SHA256 ("signature v3"), checked against
 * the worked example in Tencent Cloud's signature documentation (see tencent-faceid.test.ts).
 */

export const FACEID_VERSION = '2018-03-01';
const SERVICE = 'faceid';
const ALGORITHM = 'TC3-HMAC-SHA256';
export const TC3_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface Tc3Request {
  /** e.g. faceid.tencentcloudapi.com (with :port when not the default). */
  host: string;
  /** The credential scope's service; for real endpoints the host's first label. */
  service: string;
  /** The exact body bytes that go on the wire. */
  payload: string;
  timestamp: number;
  /** Headers to sign besides content-type and host (lowercase name → value). */
  extraHeaders?: Record<string, string>;
}

const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const hmac = (key: Buffer | string, value: string) => createHmac('sha256', key).update(value, 'utf8').digest();

/** UTC day of the timestamp: the scope date must match it, whatever the server's zone. */
export const tc3Date = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

function signedHeaderMap(req: Tc3Request): [string, string][] {
  const headers: Record<string, string> = { 'content-type': TC3_CONTENT_TYPE, host: req.host };
  for (const [name, value] of Object.entries(req.extraHeaders ?? {})) headers[name.toLowerCase()] = value;
  // Names and values lowercase and trimmed, sorted by name in ASCII order.
  return Object.entries(headers)
    .map(([name, value]): [string, string] => [name.trim().toLowerCase(), value.trim().toLowerCase()])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function tc3CanonicalRequest(req: Tc3Request) {
  const headers = signedHeaderMap(req);
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalHeaders = headers.map(([name, value]) => `${name}:${value}\n`).join('');
  // POST: the canonical URI is "/" and the query string is always empty.
  const canonical = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(req.payload)].join('\n');
  return { canonical, signedHeaders };
}

export function tc3StringToSign(req: Tc3Request) {
  const scope = `${tc3Date(req.timestamp)}/${req.service}/tc3_request`;
  const { canonical } = tc3CanonicalRequest(req);
  return `${ALGORITHM}\n${req.timestamp}\n${scope}\n${sha256Hex(canonical)}`;
}

export function tc3Signature(req: Tc3Request, secretKey: string) {
  const secretDate = hmac(`TC3${secretKey}`, tc3Date(req.timestamp));
  const secretService = hmac(secretDate, req.service);
  const secretSigning = hmac(secretService, 'tc3_request');
  return createHmac('sha256', secretSigning).update(tc3StringToSign(req), 'utf8').digest('hex');
}

export function tc3Authorization(req: Tc3Request, secretId: string, secretKey: string) {
  const scope = `${tc3Date(req.timestamp)}/${req.service}/tc3_request`;
  const { signedHeaders } = tc3CanonicalRequest(req);
  return `${ALGORITHM} Credential=${secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${tc3Signature(req, secretKey)}`;
}

export interface TencentFaceIdOptions {
  /** https://faceid.tencentcloudapi.com, or a local fake in tests. */
  endpoint: string;
  secretId: string;
  secretKey: string;
  /** The business flow (业务流程) configured in the FaceID console. */
  ruleId: string;
  fetch?: typeof fetch;
  now?: () => Date;
  timeoutMs?: number;
}

/** Tencent's result for an ID it will never finish: the person has to start again. */
const EXPIRED_REASON = '核身链接已过期，请重新发起认证。';

export function createTencentFaceIdProvider(opts: TencentFaceIdOptions): RealNameProvider {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => new Date());
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const endpoint = new URL(opts.endpoint);

  /** One signed API 3.0 call; answers Response without its RequestId, or throws. */
  async function call(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const payload = JSON.stringify(params);
    const timestamp = Math.floor(now().getTime() / 1000);
    const signed: Tc3Request = {
      host: endpoint.host,
      service: SERVICE,
      payload,
      timestamp,
      extraHeaders: { 'x-tc-action': action },
    };
    let response: Response;
    try {
      response = await doFetch(new URL('/', endpoint), {
        method: 'POST',
        headers: {
          Authorization: tc3Authorization(signed, opts.secretId, opts.secretKey),
          'Content-Type': TC3_CONTENT_TYPE,
          'X-TC-Action': action,
          'X-TC-Timestamp': String(timestamp),
          'X-TC-Version': FACEID_VERSION,
        },
        body: payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = new RealNameProviderError(
        timedOut ? `Tencent FaceID ${action} did not answer within ${timeoutMs} ms` : 'Tencent FaceID is unreachable',
      );
      failure.cause = error;
      throw failure;
    }

    const body = await readJson(response);
    const result = asObject(asObject(body)?.Response);
    if (!result)
      throw new RealNameProviderError(`Tencent FaceID ${action}: HTTP ${response.status}`, `HTTP_${response.status}`);
    const error = asObject(result.Error);
    if (error) {
      const code = typeof error.Code === 'string' ? error.Code : 'Unknown';
      const message = typeof error.Message === 'string' ? error.Message : '';
      throw new RealNameProviderError(`Tencent FaceID ${action} failed: ${code} ${message}`.trim(), code);
    }
    return result;
  }

  return {
    name: 'tencent',
    async start({ attemptId, name, idNumber, redirectUrl }) {
      try {
        const result = await call('DetectAuth', {
          RuleId: opts.ruleId,
          IdCard: idNumber,
          Name: name,
          RedirectUrl: redirectUrl,
          Extra: attemptId,
        });
        if (typeof result.BizToken !== 'string' || typeof result.Url !== 'string') {
          throw new RealNameProviderError('Tencent FaceID DetectAuth answered without BizToken or Url');
        }
        return { token: result.BizToken, url: result.Url };
      } catch (error) {
        // Vendor messages may quote what was sent; the person's name and number never reach a log.
        if (error instanceof Error) error.message = redact(error.message, [name, idNumber]);
        throw error;
      }
    },

    async result(token): Promise<RealNameResult> {
      let result: Record<string, unknown>;
      try {
        // InfoType 1: the text result only. Photos and video of the person are never fetched.
        result = await call('GetDetectInfoEnhanced', { BizToken: token, RuleId: opts.ruleId, InfoType: '1' });
      } catch (error) {
        if (error instanceof RealNameProviderError && error.vendorCode === 'InvalidParameterValue.BizTokenExpired') {
          return { state: 'failed', reason: EXPIRED_REASON };
        }
        throw error;
      }
      const text = asObject(result.Text);
      const code = text?.ErrCode;
      // Until the person finishes, Text (or its ErrCode) is null.
      if (code === null || code === undefined) return { state: 'pending' };
      if (code === 0) return { state: 'verified' };
      const message = typeof text?.ErrMsg === 'string' && text.ErrMsg ? text.ErrMsg : `核身未通过（${String(code)}）`;
      return { state: 'failed', reason: message.slice(0, 200) };
    },
  };
}

function redact(message: string, secrets: string[]) {
  return secrets.filter(Boolean).reduce((text, secret) => text.split(secret).join('[redacted]'), message);
}

const asObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    // A gateway in front of the API can answer HTML; the status code is all we can report then.
    return undefined;
  }
}
