import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Aliyun's SendSms endpoint (dysmsapi, RPC, signature 1.0). It verifies the
 * signature with its own implementation of the documented algorithm (deliberately not the
 * client's helpers, so a shared bug cannot pass unnoticed) and records what it would deliver.
 */

export interface FakeAliyunSmsOptions {
  accessKeyId?: string;
  accessKeySecret?: string;
  /** When set, other sign names / template codes are refused like unapproved ones. */
  signName?: string;
  templateCode?: string;
}

export interface FakeSmsRequest {
  query: Record<string, string>;
  status: number;
  code: string;
}

export interface FakeSmsSend {
  phone: string;
  code: string;
  signName: string;
  templateCode: string;
  bizId: string;
}

export interface FakeAliyunSms {
  url: string;
  accessKeyId: string;
  accessKeySecret: string;
  /** Every request, accepted or not, with the Code the fake answered. */
  requests: FakeSmsRequest[];
  /** Accepted sends: what the phone would have received. */
  sends: FakeSmsSend[];
  /** The code most recently delivered to this phone. */
  lastCode(phone: string): string | undefined;
  /** The next well-formed send answers this business error (HTTP 200, like Aliyun). */
  failNextSend(code?: string, message?: string): void;
  /** The next request gets no answer at all, to exercise client timeouts. */
  hangNextRequest(): void;
  close(): Promise<void>;
}

const REQUIRED = [
  'AccessKeyId',
  'Action',
  'Format',
  'PhoneNumbers',
  'SignName',
  'SignatureMethod',
  'SignatureNonce',
  'SignatureVersion',
  'TemplateCode',
  'Timestamp',
  'Version',
  'Signature',
];

// RFC 3986 unreserved characters stay literal; every other UTF-8 byte becomes %XX.
function rfc3986(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function expectedSignature(query: Record<string, string>, secret: string): string {
  const canonical = Object.keys(query)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${rfc3986(key)}=${rfc3986(query[key])}`)
    .join('&');
  const stringToSign = `GET&${rfc3986('/')}&${rfc3986(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

export async function startFakeAliyunSms(options: FakeAliyunSmsOptions = {}): Promise<FakeAliyunSms> {
  const accessKeyId = options.accessKeyId ?? 'fake-access-key-id';
  const accessKeySecret = options.accessKeySecret ?? 'fake-access-key-secret';
  const requests: FakeSmsRequest[] = [];
  const sends: FakeSmsSend[] = [];
  const usedNonces = new Set<string>();
  let nextFailure: { code: string; message: string } | undefined;
  let hangNext = false;

  function answer(res: ServerResponse, query: Record<string, string>, status: number, code: string, message: string) {
    requests.push({ query, status, code });
    const body: Record<string, string> = { RequestId: randomUUID().toUpperCase(), Code: code, Message: message };
    if (code === 'OK') body.BizId = `${Date.now()}^0`;
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(body));
    return body;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    if (hangNext) {
      hangNext = false;
      requests.push({ query, status: 0, code: 'HUNG' });
      return;
    }
    if (req.method !== 'GET' || url.pathname !== '/') {
      return answer(res, query, 404, 'InvalidAction.NotFound', 'Specified api is not found');
    }
    const missing = REQUIRED.find((key) => !query[key]);
    if (missing) return answer(res, query, 400, `Missing${missing}`, `${missing} is mandatory for this action.`);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(query.Timestamp)) {
      return answer(res, query, 400, 'InvalidTimeStamp.Format', 'Specified time stamp is not valid.');
    }
    if (query.SignatureMethod !== 'HMAC-SHA1' || query.SignatureVersion !== '1.0') {
      return answer(res, query, 400, 'InvalidParameter', 'Unsupported SignatureMethod or SignatureVersion.');
    }
    if (query.AccessKeyId !== accessKeyId) {
      return answer(res, query, 404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    if (query.Signature !== expectedSignature(query, accessKeySecret)) {
      return answer(
        res,
        query,
        400,
        'SignatureDoesNotMatch',
        'Specified signature is not matched with our calculation.',
      );
    }
    if (usedNonces.has(query.SignatureNonce)) {
      return answer(res, query, 400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    }
    usedNonces.add(query.SignatureNonce);
    if (query.Action !== 'SendSms' || query.Version !== '2017-05-25') {
      return answer(res, query, 404, 'InvalidAction.NotFound', 'Specified api is not found');
    }
    if (options.signName && query.SignName !== options.signName) {
      return answer(res, query, 200, 'isv.SMS_SIGNATURE_ILLEGAL', 'The SMS signature is not approved.');
    }
    if (options.templateCode && query.TemplateCode !== options.templateCode) {
      return answer(res, query, 200, 'isv.SMS_TEMPLATE_ILLEGAL', 'The SMS template is not approved.');
    }
    if (!/^(?:\+?86)?1\d{10}$/.test(query.PhoneNumbers)) {
      return answer(res, query, 200, 'isv.MOBILE_NUMBER_ILLEGAL', 'Invalid mobile number.');
    }
    const code = templateCode(query.TemplateParam);
    if (code === undefined) {
      return answer(res, query, 200, 'isv.INVALID_JSON_PARAM', 'TemplateParam must be JSON with a string "code".');
    }
    if (nextFailure) {
      const failure = nextFailure;
      nextFailure = undefined;
      return answer(res, query, 200, failure.code, failure.message);
    }
    const body = answer(res, query, 200, 'OK', 'OK');
    sends.push({
      phone: query.PhoneNumbers,
      code,
      signName: query.SignName,
      templateCode: query.TemplateCode,
      bizId: body.BizId,
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accessKeyId,
    accessKeySecret,
    requests,
    sends,
    lastCode: (phone) => sends.findLast((send) => send.phone === phone)?.code,
    failNextSend(code = 'isv.BUSINESS_LIMIT_CONTROL', message = 'Flow control triggered for this number.') {
      nextFailure = { code, message };
    },
    hangNextRequest() {
      hangNext = true;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function templateCode(templateParam: string | undefined): string | undefined {
  try {
    const parsed: unknown = JSON.parse(templateParam ?? '');
    if (typeof parsed !== 'object' || parsed === null || !('code' in parsed)) return undefined;
    return typeof parsed.code === 'string' ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}
