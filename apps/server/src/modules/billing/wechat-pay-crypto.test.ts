import { createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  goCertificatePem,
  goNotification,
  goPrivateKeyPem,
  goSourceSignature,
  javaAead,
  javaApiV3Key,
  javaCertificatePem,
  javaMessageSignature,
  javaSealedCertificate,
} from '../../testing/wechat-pay-vectors.ts';
import {
  answerSignatureMessage,
  buildAuthorization,
  certificateSerial,
  checkWechatpaySignature,
  decryptResource,
  encryptResource,
  loadPlatformKey,
  loadPlatformKeys,
  requestSignatureMessage,
  signSha256WithRsa,
  verifySha256WithRsa,
} from './wechat-pay-crypto.ts';

// The vectors are the official SDKs' own fixtures (wechatpay-go, wechatpay-java; files named in
// testing/wechat-pay-vectors.ts): PKCS#1 v1.5 signatures and GCM with a fixed nonce are
// deterministic, so matching them byte for byte shows the algorithm is the one WeChat Pay runs.
const goNotice = { ...goNotification.headers };
const signedHeaders = (headers: Record<string, string>) => ({
  timestamp: headers['wechatpay-timestamp'],
  nonce: headers['wechatpay-nonce'],
  signature: headers['wechatpay-signature'],
  serial: headers['wechatpay-serial'],
});

describe('WeChat Pay v3 signatures', () => {
  it('reproduces the wechatpay-go SHA256-with-RSA vector and verifies it with the public key', () => {
    expect(signSha256WithRsa('source', goPrivateKeyPem)).toBe(goSourceSignature);
    const publicKey = createPublicKey(goPrivateKeyPem);
    expect(verifySha256WithRsa('source', goSourceSignature, publicKey)).toBe(true);
    expect(verifySha256WithRsa('wrong source', goSourceSignature, publicKey)).toBe(false);
    expect(verifySha256WithRsa('source', 'not base64 at all!', publicKey)).toBe(false);
  });

  it('verifies the wechatpay-java signature with its certificate, serial read from the X.509', () => {
    const key = loadPlatformKey('5F1C72E2A8931B72A2E13AF8DEE92471EB397115', javaCertificatePem);
    expect(key).toMatchObject({ kind: 'certificate', serial: '5F1C72E2A8931B72A2E13AF8DEE92471EB397115' });
    expect(verifySha256WithRsa('message', javaMessageSignature, key.key)).toBe(true);
    expect(verifySha256WithRsa('message!', javaMessageSignature, key.key)).toBe(false);
    expect(certificateSerial(goCertificatePem)).toBe('D7CE59D1F522D701');
  });

  it('checks the wechatpay-go notification over its raw body with the platform certificate', () => {
    const keys = loadPlatformKeys([['D7CE59D1F522D701', goCertificatePem]]);
    const body = Buffer.from(goNotification.body, 'utf8');
    expect(checkWechatpaySignature(signedHeaders(goNotice), body, keys)).toBe('ok');
    // The same message signed with the certificate's private key gives the published signature.
    const message = answerSignatureMessage(goNotice['wechatpay-timestamp'], goNotice['wechatpay-nonce'], body);
    expect(signSha256WithRsa(message, goPrivateKeyPem)).toBe(goNotice['wechatpay-signature']);

    // Re-serialising the JSON (here: Chinese escaped) changes the bytes and breaks the signature.
    const reserialised = Buffer.from(goNotification.body.replace('签约成功', '\\u7b7e\\u7ea6\\u6210\\u529f'));
    expect(JSON.parse(reserialised.toString())).toEqual(JSON.parse(goNotification.body));
    expect(checkWechatpaySignature(signedHeaders(goNotice), reserialised, keys)).toBe('bad_signature');
    expect(checkWechatpaySignature({ ...signedHeaders(goNotice), nonce: 'other' }, body, keys)).toBe('bad_signature');
    expect(checkWechatpaySignature({ ...signedHeaders(goNotice), timestamp: '1624523847' }, body, keys)).toBe(
      'bad_signature',
    );
    expect(checkWechatpaySignature({ ...signedHeaders(goNotice), serial: 'D7CE59D1F522D702' }, body, keys)).toBe(
      'unknown_serial',
    );
    expect(checkWechatpaySignature({ ...signedHeaders(goNotice), signature: undefined }, body, keys)).toBe(
      'bad_signature',
    );
    // WeChat Pay probes merchants with signatures that must fail.
    const probe = { ...signedHeaders(goNotice), signature: `WECHATPAY/SIGNTEST/${goNotice['wechatpay-signature']}` };
    expect(checkWechatpaySignature(probe, body, keys)).toBe('bad_signature');
  });

  it('checks the same notification in public-key mode (PUB_KEY_ID_…), PEM or KeyObject', () => {
    const publicKeyPem = createPublicKey(goPrivateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    const id = 'PUB_KEY_ID_0114232134912410000000000000';
    const body = Buffer.from(goNotification.body, 'utf8');
    for (const material of [publicKeyPem, new X509Certificate(goCertificatePem).publicKey]) {
      const keys = loadPlatformKeys([[id, material]]);
      expect(loadPlatformKey(id, material).kind).toBe('public_key');
      expect(checkWechatpaySignature({ ...signedHeaders(goNotice), serial: id }, body, keys)).toBe('ok');
      expect(checkWechatpaySignature(signedHeaders(goNotice), body, keys)).toBe('unknown_serial');
    }
  });

  it('refuses a certificate filed under another serial, and a private key as a platform key', () => {
    expect(() => loadPlatformKey('5F1C72E2A8931B72A2E13AF8DEE92471EB397116', javaCertificatePem)).toThrow(
      /has serial 5F1C72E2A8931B72A2E13AF8DEE92471EB397115/,
    );
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => loadPlatformKey('PUB_KEY_ID_1', privateKey)).toThrow(/must be a public key/);
  });

  it('builds the request message and the Authorization header in the documented form', () => {
    expect(requestSignatureMessage('get', '/v3/certificates?a=1', 1554208460, 'NONCE', '')).toBe(
      'GET\n/v3/certificates?a=1\n1554208460\nNONCE\n\n',
    );
    const authorization = buildAuthorization({
      mchId: '1900009191',
      serialNo: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C',
      privateKey: goPrivateKeyPem,
      method: 'POST',
      pathWithQuery: '/v3/pay/transactions/native',
      body: '{"a":"测试"}',
      timestamp: 1554208460,
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
    });
    const signature = signSha256WithRsa(
      'POST\n/v3/pay/transactions/native\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n{"a":"测试"}\n',
      goPrivateKeyPem,
    );
    expect(authorization).toBe(
      'WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",' +
        `signature="${signature}",timestamp="1554208460",serial_no="1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C"`,
    );
  });
});

describe('WeChat Pay v3 AEAD_AES_256_GCM', () => {
  const resource = {
    ciphertext: javaAead.ciphertext,
    nonce: javaAead.nonce,
    associated_data: javaAead.associatedData,
  };

  it('seals and opens the wechatpay-java vector exactly', () => {
    expect(encryptResource(javaAead.plaintext, javaApiV3Key, javaAead.nonce, javaAead.associatedData)).toBe(
      javaAead.ciphertext,
    );
    expect(decryptResource(resource, javaApiV3Key)).toBe(javaAead.plaintext);
  });

  it('opens the sealed platform certificate of wechatpay-java and reads its serial', () => {
    const pem = decryptResource(
      {
        ciphertext: javaSealedCertificate.ciphertext,
        nonce: javaSealedCertificate.nonce,
        associated_data: javaSealedCertificate.associatedData,
      },
      javaApiV3Key,
    );
    expect(pem.startsWith('-----BEGIN CERTIFICATE-----')).toBe(true);
    expect(certificateSerial(pem)).toBe(javaSealedCertificate.serialNo);
  });

  it('fails on a wrong key, nonce, associated data, a flipped bit or a cut tag', () => {
    expect(() => decryptResource(resource, 'b7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb')).toThrow();
    expect(() => decryptResource({ ...resource, nonce: 'bad-4a9R25RW' }, javaApiV3Key)).toThrow();
    expect(() => decryptResource({ ...resource, associated_data: 'bad' }, javaApiV3Key)).toThrow();
    const flipped = Buffer.from(javaAead.ciphertext, 'base64');
    flipped[0] ^= 1;
    expect(() => decryptResource({ ...resource, ciphertext: flipped.toString('base64') }, javaApiV3Key)).toThrow();
    const cut = Buffer.from(javaAead.ciphertext, 'base64').subarray(0, 20).toString('base64');
    expect(() => decryptResource({ ...resource, ciphertext: cut }, javaApiV3Key)).toThrow();
    expect(() => decryptResource({ ...resource, ciphertext: 'AAAA' }, javaApiV3Key)).toThrow(/shorter/);
  });

  it('insists on a 32-byte APIv3 key (AES-256, not the 16-byte keys of some SDK fixtures)', () => {
    expect(() => decryptResource(resource, 'testMchAPIv3Key0')).toThrow(/32 bytes/);
    expect(() => encryptResource('x', 'short', '123456789012', '')).toThrow(/32 bytes/);
  });

  it('round-trips Chinese text and empty associated data', () => {
    const sealed = encryptResource('{"summary":"支付成功"}', javaApiV3Key, 'abcdefghijkl', '');
    expect(decryptResource({ ciphertext: sealed, nonce: 'abcdefghijkl' }, javaApiV3Key)).toBe('{"summary":"支付成功"}');
  });
});
