import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

export interface SignedRequest {
  method: string;
  /** Path as sent (already URI-encoded). */
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

/** RFC 3986 encoding as SigV4's canonical query wants it (everything but A-Za-z0-9-_.~). */
const strict = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

/** The query's pairs, decoded, in the order sent. */
export function queryPairs(query: string): [string, string][] {
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))];
    });
}

function canonicalQueryOf(pairs: [string, string][]) {
  return pairs
    .map(([name, value]) => [strict(name), strict(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function expectedSignature(
  request: SignedRequest,
  parts: { date: string; region: string; service: string; signedHeaders: string; canonicalQuery: string },
  amzDate: string,
  payloadHash: string,
  secret: string,
) {
  const canonicalHeaders = parts.signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    request.method,
    request.path,
    parts.canonicalQuery,
    canonicalHeaders,
    parts.signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${parts.date}/${parts.region}/${parts.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, parts.date), parts.region), parts.service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

/**
 * AWS Signature Version 4 as the S3 documentation defines it, written independently of the
 * client library so the test checks the client's signatures rather than trusting them.
 */
export function signatureV4(request: SignedRequest, secret: string) {
  const auth = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!match) return null;
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match;
  const canonicalQuery = canonicalQueryOf(queryPairs(request.query));
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
  const expected = expectedSignature(
    request,
    { date, region, service, signedHeaders, canonicalQuery },
    String(request.headers['x-amz-date']),
    payloadHash,
    secret,
  );
  return { accessKeyId, region, expected, signature };
}

/**
 * A presigned request (query-string authentication): the signature covers every query parameter
 * but itself, the payload is unsigned, and the URL is refused once `X-Amz-Expires` has passed.
 */
export function presignedSignatureV4(request: SignedRequest, secret: string, now = new Date()) {
  const pairs = queryPairs(request.query);
  const get = (name: string) => pairs.find(([key]) => key === name)?.[1] ?? '';
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return null;
  const credential = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(get('X-Amz-Credential'));
  const amzDate = get('X-Amz-Date');
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!credential || !when) return null;
  const [, accessKeyId, date, region, service] = credential;
  const signedAt = Date.UTC(+when[1], +when[2] - 1, +when[3], +when[4], +when[5], +when[6]);
  const expired = now.getTime() > signedAt + Number(get('X-Amz-Expires')) * 1000;
  const canonicalQuery = canonicalQueryOf(pairs.filter(([name]) => name !== 'X-Amz-Signature'));
  const expected = expectedSignature(
    request,
    { date, region, service, signedHeaders: get('X-Amz-SignedHeaders'), canonicalQuery },
    amzDate,
    'UNSIGNED-PAYLOAD',
    secret,
  );
  return { accessKeyId, region, expected, signature: get('X-Amz-Signature'), expired };
}

interface StoredObject {
  bytes: Buffer;
  contentType: string;
  metadata: Record<string, string>;
}
interface MultipartUpload {
  key: string;
  contentType: string;
  metadata: Record<string, string>;
  initiated: Date;
  parts: Map<number, { bytes: Buffer; etag: string }>;
}

const xmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const etagOf = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;
const metadataOf = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, value]) => [name, String(value)]),
  );

/**
 * A bucket on loopback that stores objects in memory and refuses requests not signed with its key:
 * objects (PUT, GET with one range, HEAD, DELETE, DeleteObjects), multipart uploads (create,
 * upload part, list parts, complete, abort, list uploads), and presigned GETs with the
 * `response-content-type` / `response-content-disposition` overrides.
 */
export async function startFakeS3(opts: {
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** The clock presigned URLs are checked against (tests move it forward). */
  now?: () => Date;
}) {
  const objects = new Map<string, StoredObject>();
  const multipart = new Map<string, MultipartUpload>();
  /** `METHOD path?query` of every request that passed the signature check, for tests. */
  const requests: string[] = [];
  const now = opts.now ?? (() => new Date());

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const method = req.method ?? 'GET';
    const reply = (status: number, xml?: string, headers: Record<string, string | number> = {}) => {
      res.writeHead(status, xml ? { 'content-type': 'application/xml', ...headers } : headers);
      res.end(method === 'HEAD' ? undefined : xml);
    };
    const fail = (status: number, code: string) => reply(status, `<Error><Code>${code}</Code></Error>`);

    const request = { method, path, query, headers: req.headers };
    const presigned = req.headers.authorization === undefined;
    const signed = presigned
      ? presignedSignatureV4(request, opts.secretAccessKey, now())
      : signatureV4(request, opts.secretAccessKey);
    const contentHash = req.headers['x-amz-content-sha256'];
    const bodyOk = contentHash === undefined || contentHash === 'UNSIGNED-PAYLOAD' || contentHash === sha256(body);
    if (!signed || signed.accessKeyId !== opts.accessKeyId || signed.expected !== signed.signature || !bodyOk) {
      return fail(403, 'SignatureDoesNotMatch');
    }
    if (signed && 'expired' in signed && signed.expired) return fail(403, 'AccessDenied');
    if (presigned && method !== 'GET' && method !== 'HEAD') return fail(403, 'AccessDenied');
    requests.push(`${method} ${req.url}`);

    const params = new Map(queryPairs(query));
    const bucketPath = `/${opts.bucket}`;
    if (path === bucketPath || path === `${bucketPath}/`) return bucketRequest(method, params, body, reply);
    if (!path.startsWith(`${bucketPath}/`)) return fail(404, 'NoSuchBucket');
    const key = decodeURIComponent(path.slice(bucketPath.length + 1));
    const uploadId = params.get('uploadId');

    if (method === 'POST' && params.has('uploads')) {
      const id = randomBytes(12).toString('hex');
      multipart.set(id, {
        key,
        contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        metadata: metadataOf(req.headers),
        initiated: now(),
        parts: new Map(),
      });
      return reply(
        200,
        `<InitiateMultipartUploadResult><Bucket>${opts.bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (uploadId !== undefined) {
      const upload = multipart.get(uploadId);
      if (!upload || upload.key !== key) return fail(404, 'NoSuchUpload');
      if (method === 'PUT') {
        const partNumber = Number(params.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) return fail(400, 'InvalidArgument');
        const etag = etagOf(body);
        upload.parts.set(partNumber, { bytes: body, etag });
        return reply(200, undefined, { etag });
      }
      if (method === 'GET') {
        const parts = [...upload.parts.entries()].sort(([a], [b]) => a - b);
        const listed = parts
          .map(
            ([number, part]) =>
              `<Part><PartNumber>${number}</PartNumber><LastModified>${upload.initiated.toISOString()}</LastModified><ETag>${xmlEscape(part.etag)}</ETag><Size>${part.bytes.length}</Size></Part>`,
          )
          .join('');
        return reply(
          200,
          `<ListPartsResult><Bucket>${opts.bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId><MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>${listed}</ListPartsResult>`,
        );
      }
      if (method === 'POST') {
        const chosen = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((match) => ({
          number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(match[1] ?? '')?.[1]),
          etag: /<ETag>([^<]*)<\/ETag>/.exec(match[1] ?? '')?.[1]?.replace(/&quot;/g, '"'),
        }));
        const pieces: Buffer[] = [];
        for (const [index, { number, etag }] of chosen.entries()) {
          const part = upload.parts.get(number);
          if (!part || part.etag !== etag) return fail(400, 'InvalidPart');
          // S3's rule: every part but the last is at least 5 MiB.
          if (index < chosen.length - 1 && part.bytes.length < 5 * 1024 * 1024) return fail(400, 'EntityTooSmall');
          pieces.push(part.bytes);
        }
        const bytes = Buffer.concat(pieces);
        objects.set(key, { bytes, contentType: upload.contentType, metadata: upload.metadata });
        multipart.delete(uploadId);
        return reply(
          200,
          `<CompleteMultipartUploadResult><Bucket>${opts.bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etagOf(bytes))}</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (method === 'DELETE') {
        multipart.delete(uploadId);
        return reply(204);
      }
      return fail(405, 'MethodNotAllowed');
    }

    if (method === 'PUT') {
      objects.set(key, {
        bytes: body,
        contentType: String(req.headers['content-type'] ?? ''),
        metadata: metadataOf(req.headers),
      });
      return reply(200, undefined, { etag: etagOf(body) });
    }
    if (method === 'DELETE') {
      objects.delete(key);
      return reply(204);
    }
    const object = objects.get(key);
    if (!object) return fail(404, 'NoSuchKey');
    const size = object.bytes.length;
    const headers: Record<string, string | number> = {
      'content-type': params.get('response-content-type') ?? object.contentType,
      etag: etagOf(object.bytes),
      'accept-ranges': 'bytes',
      ...object.metadata,
    };
    const disposition = params.get('response-content-disposition');
    if (disposition) headers['content-disposition'] = disposition;
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (req.headers.range && range) {
      const [, first = '', last = ''] = range;
      const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
      const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
      if (start >= size || end < start) {
        res.writeHead(416, { 'content-range': `bytes */${size}` });
        return res.end();
      }
      res.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${end}/${size}`,
        'content-length': end - start + 1,
      });
      return res.end(method === 'HEAD' ? undefined : object.bytes.subarray(start, end + 1));
    }
    res.writeHead(200, { ...headers, 'content-length': size });
    res.end(method === 'HEAD' ? undefined : object.bytes);
  });

  /** Requests on the bucket itself: DeleteObjects and ListMultipartUploads. */
  function bucketRequest(
    method: string,
    params: Map<string, string>,
    body: Buffer,
    reply: (status: number, xml?: string) => void,
  ) {
    if (method === 'POST' && params.has('delete')) {
      const keys = [...body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) =>
        (match[1] ?? '')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&'),
      );
      for (const key of keys) objects.delete(key);
      const deleted = keys.map((key) => `<Deleted><Key>${xmlEscape(key)}</Key></Deleted>`).join('');
      return reply(200, `<DeleteResult>${deleted}</DeleteResult>`);
    }
    if (method === 'GET' && params.has('uploads')) {
      const prefix = params.get('prefix') ?? '';
      const listed = [...multipart.entries()]
        .filter(([, upload]) => upload.key.startsWith(prefix))
        .map(
          ([id, upload]) =>
            `<Upload><Key>${xmlEscape(upload.key)}</Key><UploadId>${id}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
        )
        .join('');
      return reply(
        200,
        `<ListMultipartUploadsResult><Bucket>${opts.bucket}</Bucket><Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${listed}</ListMultipartUploadsResult>`,
      );
    }
    return reply(405, '<Error><Code>MethodNotAllowed</Code></Error>');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    multipart,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeS3 = Awaited<ReturnType<typeof startFakeS3>>;
