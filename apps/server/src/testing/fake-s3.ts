import { createHash, createHmac } from 'node:crypto';
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
  const canonicalQuery = request.query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => part ?? ''))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value = '']) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
  const canonical = [request.method, request.path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join(
    '\n',
  );
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', String(request.headers['x-amz-date']), scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return { accessKeyId, region, expected: createHmac('sha256', key).update(toSign).digest('hex'), signature };
}

/** A bucket on loopback that stores objects in memory and refuses requests not signed with its key. */
export async function startFakeS3(opts: { accessKeyId: string; secretAccessKey: string; bucket: string }) {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [path, query = ''] = (req.url ?? '/').split('?');
    const signed = signatureV4(
      { method: req.method ?? 'GET', path, query, headers: req.headers },
      opts.secretAccessKey,
    );
    const contentHash = req.headers['x-amz-content-sha256'];
    const bodyOk = contentHash === undefined || contentHash === 'UNSIGNED-PAYLOAD' || contentHash === sha256(body);
    if (!signed || signed.accessKeyId !== opts.accessKeyId || signed.expected !== signed.signature || !bodyOk) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      return res.end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
    }
    const prefix = `/${opts.bucket}/`;
    if (!path.startsWith(prefix)) {
      res.writeHead(404, { 'content-type': 'application/xml' });
      return res.end('<Error><Code>NoSuchBucket</Code></Error>');
    }
    const key = decodeURIComponent(path.slice(prefix.length));
    if (req.method === 'PUT') {
      objects.set(key, { bytes: body, contentType: String(req.headers['content-type'] ?? '') });
      res.writeHead(200);
      return res.end();
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    const object = objects.get(key);
    if (!object) {
      res.writeHead(404, { 'content-type': 'application/xml' });
      return res.end('<Error><Code>NoSuchKey</Code></Error>');
    }
    res.writeHead(200, { 'content-type': object.contentType });
    res.end(object.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
