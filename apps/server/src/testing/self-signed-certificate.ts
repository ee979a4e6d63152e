import { createSign, type KeyObject } from 'node:crypto';

/**
 * A minimal self-signed X.509 v3 certificate (RSA, sha256WithRSAEncryption, no extensions),
 * DER-encoded by hand so the fakes need neither a library nor `openssl` on PATH. Enough for
 * node:crypto's X509Certificate to parse it and for a client to verify signatures with its key.
 */

export interface SelfSignedCertificateInput {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Upper-case hex; its first byte below 0x80 keeps the DER INTEGER positive without padding. */
  serialHex: string;
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

function der(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let n = arc >> 7; n > 0; n >>= 7) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

// UTCTime (YYMMDDHHMMSSZ) covers 1950–2049, which is all a test certificate needs.
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  return der(
    0x17,
    Buffer.from(
      `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`,
    ),
  );
}

const SEQUENCE = 0x30;
const SET = 0x31;

export function createSelfSignedCertificate(input: SelfSignedCertificateInput): string {
  const sha256WithRsa = der(SEQUENCE, oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));
  const name = der(SEQUENCE, der(SET, der(SEQUENCE, oid('2.5.4.3'), der(0x0c, Buffer.from(input.commonName)))));
  const tbs = der(
    SEQUENCE,
    der(0xa0, der(0x02, Buffer.from([2]))), // [0] EXPLICIT version v3
    der(0x02, Buffer.from(input.serialHex, 'hex')),
    sha256WithRsa,
    name,
    der(SEQUENCE, utcTime(input.notBefore), utcTime(input.notAfter)),
    name,
    input.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('RSA-SHA256').update(tbs).sign(input.privateKey);
  const certificate = der(SEQUENCE, tbs, sha256WithRsa, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
