import { AwsClient } from 'aws4fetch';
import { contentTypeOfKey, type ObjectStorage } from './storage.ts';

/**
 * `STORAGE_URL` for any S3-compatible store (MinIO, AWS S3, Aliyun OSS, Tencent COS):
 * `https://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix]?region=us-east-1[&style=virtual]`.
 * Path style (`host/bucket/key`) by default, which MinIO and most self-hosted stores expect;
 * `style=virtual` addresses `bucket.host/key` as AWS, OSS and COS prefer.
 */
export interface S3Location {
  endpoint: URL;
  bucket: string;
  prefix: string;
  region: string;
  virtualHosted: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export function parseStorageUrl(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The URL's own error quotes the whole input, access key and secret included: never pass it on.
    throw new Error('STORAGE_URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('STORAGE_URL must be http(s)://');
  const [bucket, ...rest] = url.pathname.split('/').filter(Boolean);
  if (!bucket) throw new Error('STORAGE_URL must name a bucket: https://KEY:SECRET@host/bucket');
  if (!url.username || !url.password) throw new Error('STORAGE_URL must carry ACCESS_KEY:SECRET_KEY@');
  const endpoint = new URL(`${url.protocol}//${url.host}`);
  return {
    endpoint,
    bucket,
    prefix: rest.length > 0 ? `${rest.join('/')}/` : '',
    region: url.searchParams.get('region') ?? 'us-east-1',
    virtualHosted: url.searchParams.get('style') === 'virtual',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

export function createS3Storage(location: S3Location, fetchImpl: typeof fetch = fetch): ObjectStorage {
  const client = new AwsClient({
    accessKeyId: location.accessKeyId,
    secretAccessKey: location.secretAccessKey,
    service: 's3',
    region: location.region,
  });
  const { endpoint } = location;
  const objectUrl = (key: string) => {
    // Keys are already limited to [A-Za-z0-9._-/] by the storage key pattern: nothing to escape.
    const path = `${location.prefix}${key}`;
    return location.virtualHosted
      ? `${endpoint.protocol}//${location.bucket}.${endpoint.host}/${path}`
      : `${endpoint.protocol}//${endpoint.host}/${location.bucket}/${path}`;
  };
  const send = async (key: string, init: RequestInit) => {
    const request = await client.sign(objectUrl(key), init);
    return fetchImpl(request);
  };
  const fail = async (action: string, key: string, response: Response) => {
    const body = (await response.text()).slice(0, 300);
    return new Error(`storage: S3 ${action} ${key} answered ${response.status}: ${body}`);
  };

  return {
    async put(key, bytes, contentType) {
      if (contentTypeOfKey(key) !== contentType) throw new Error(`storage: key ${key} does not match ${contentType}`);
      const response = await send(key, {
        method: 'PUT',
        body: new Uint8Array(bytes),
        headers: { 'content-type': contentType },
      });
      if (!response.ok) throw await fail('PUT', key, response);
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return null;
      const response = await send(key, { method: 'GET' });
      if (response.status === 404) return null;
      if (!response.ok) throw await fail('GET', key, response);
      return { bytes: Buffer.from(await response.arrayBuffer()), contentType };
    },
    async remove(key) {
      if (!contentTypeOfKey(key)) return;
      const response = await send(key, { method: 'DELETE' });
      if (!response.ok && response.status !== 404) throw await fail('DELETE', key, response);
    },
  };
}
