import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureV4, startFakeS3 } from '../testing/fake-s3.ts';
import { createS3Storage, parseStorageUrl } from './storage-s3.ts';

const ACCESS = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('S3 signature check used by the fake bucket', () => {
  it('reproduces the GET Object example of the S3 SigV4 documentation', () => {
    const signed = signatureV4(
      {
        method: 'GET',
        path: '/test.txt',
        query: '',
        headers: {
          host: 'examplebucket.s3.amazonaws.com',
          range: 'bytes=0-9',
          'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          'x-amz-date': '20130524T000000Z',
          authorization:
            'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
        },
      },
      SECRET,
    );
    expect(signed?.expected).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });
});

describe('S3-compatible storage', () => {
  let fake: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    fake = await startFakeS3({ accessKeyId: ACCESS, secretAccessKey: SECRET, bucket: 'athena' });
  });
  afterAll(() => fake.close());

  const storageAt = (secret = SECRET) =>
    createS3Storage(
      parseStorageUrl(
        `${fake.url.replace('//', `//${ACCESS}:${encodeURIComponent(secret)}@`)}/athena/files?region=cn-east-1`,
      ),
    );

  it('parses the storage URL', () => {
    expect(
      parseStorageUrl('https://AK:S%2FK@oss.example.com/bucket/pre/fix?region=cn-hangzhou&style=virtual'),
    ).toMatchObject({
      bucket: 'bucket',
      prefix: 'pre/fix/',
      region: 'cn-hangzhou',
      virtualHosted: true,
      accessKeyId: 'AK',
      secretAccessKey: 'S/K',
    });
    expect(() => parseStorageUrl('https://oss.example.com/bucket')).toThrow(/ACCESS_KEY/);
    expect(() => parseStorageUrl('https://AK:SK@oss.example.com/')).toThrow(/bucket/);
  });

  it('refuses a malformed storage URL without repeating its secret', () => {
    for (const value of [
      '//AK:SUPERSECRET@oss.example.com/bucket',
      'https://AK:SUPERSECRET@[bad/bucket',
      'https://AK:SUPERSECRET@host:99999/b',
    ]) {
      let message = '';
      try {
        parseStorageUrl(value);
      } catch (error) {
        message = `${(error as Error).message} ${(error as Error).stack ?? ''} ${String((error as Error).cause ?? '')}`;
      }
      expect(message).toContain('STORAGE_URL is not a valid URL');
      expect(message).not.toContain('SUPERSECRET');
    }
  });

  it('puts, gets and removes signed objects under the prefix', async () => {
    const storage = storageAt();
    const bytes = Buffer.from('%PDF-1.7 hello');
    await storage.put('knowledge/abc/file.pdf', bytes, 'application/pdf');
    expect(fake.objects.has('files/knowledge/abc/file.pdf')).toBe(true);
    expect(await storage.get('knowledge/abc/file.pdf')).toEqual({ bytes, contentType: 'application/pdf' });
    await storage.remove('knowledge/abc/file.pdf');
    expect(await storage.get('knowledge/abc/file.pdf')).toBeNull();
  });

  it('fails loudly with a wrong secret and never accepts a key it could not have made', async () => {
    await expect(storageAt('wrong-secret').put('x/y.pdf', Buffer.from('1'), 'application/pdf')).rejects.toThrow(/403/);
    await expect(storageAt().put('../y.pdf', Buffer.from('1'), 'application/pdf')).rejects.toThrow(/does not match/);
    expect(await storageAt().get('../etc/passwd')).toBeNull();
  });
});
