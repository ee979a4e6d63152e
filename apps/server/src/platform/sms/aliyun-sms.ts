import { createHmac, randomUUID } from 'node:crypto';
import { type SmsProvider, SmsSendError } from './sms-provider.ts';

/**
 * Aliyun Dysms SendSms (API 2017-05-25) over the RPC protocol, signature version 1.0 (HMAC-SHA1).
 * Signing follows Alibaba Cloud's "signature mechanism" page for RPC APIs.
 */

export interface AliyunSmsOptions {
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  fetch?: typeof fetch;
  now?: () => Date;
  nonce?: () => string;
  timeoutMs?: number;
}

/**
 * RFC 3986 encoding as Aliyun requires: only A-Z a-z 0-9 - _ . ~ stay literal. The documented
 * recipe (Java URLEncoder, then + → %20, * → %2A, %7E → ~) starts from a different encoder than
 * encodeURIComponent, which also leaves ! ' ( ) * alone, so all five are encoded here.
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Keys sorted by code unit (what Aliyun's Java TreeMap does), never by locale. */
export function canonicalizeQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key])}`)
    .join('&');
}

export function aliyunStringToSign(params: Record<string, string>, method = 'GET'): string {
  return `${method}&${percentEncode('/')}&${percentEncode(canonicalizeQuery(params))}`;
}

/** Base64 HMAC-SHA1 of the string to sign; the key is the secret with a trailing '&'. */
export function signAliyunRpc(params: Record<string, string>, secret: string, method = 'GET'): string {
  return createHmac('sha1', `${secret}&`).update(aliyunStringToSign(params, method)).digest('base64');
}

/** ISO 8601 in UTC without milliseconds: the only Timestamp shape Aliyun accepts. */
export function formatAliyunTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createAliyunSmsProvider(opts: AliyunSmsOptions): SmsProvider {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => new Date());
  const nonce = opts.nonce ?? randomUUID;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = opts.endpoint.replace(/\/+$/, '');

  return {
    name: 'aliyun',
    async sendCode(phone, code) {
      const params: Record<string, string> = {
        AccessKeyId: opts.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: phone,
        RegionId: 'cn-hangzhou',
        SignName: opts.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: nonce(),
        SignatureVersion: '1.0',
        TemplateCode: opts.templateCode,
        TemplateParam: JSON.stringify({ code }),
        Timestamp: formatAliyunTimestamp(now()),
        Version: '2017-05-25',
      };
      const signature = signAliyunRpc(params, opts.accessKeySecret);
      const url = `${base}/?Signature=${percentEncode(signature)}&${canonicalizeQuery(params)}`;

      let response: Response;
      try {
        response = await doFetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        // The URL carries only the signature, never the secret, but keep it out of messages anyway.
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        const failure = new SmsSendError(
          timedOut ? `Aliyun SMS did not answer within ${timeoutMs} ms` : 'Aliyun SMS is unreachable',
        );
        failure.cause = error;
        throw failure;
      }

      const body = await readJsonObject(response);
      const vendorCode = typeof body?.Code === 'string' ? body.Code : undefined;
      if (response.ok && vendorCode === 'OK') return;
      const message = typeof body?.Message === 'string' ? body.Message : `HTTP ${response.status}`;
      throw new SmsSendError(`Aliyun SMS rejected the message: ${message}`, vendorCode ?? `HTTP_${response.status}`);
    },
  };
}

async function readJsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed: unknown = await response.json();
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    // Gateways in front of Aliyun can answer HTML; the status code is all we can report then.
    return undefined;
  }
}
