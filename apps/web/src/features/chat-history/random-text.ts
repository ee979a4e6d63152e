const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random letters and digits from the browser's cryptographic generator (also on plain http, where
 * `crypto.randomUUID` is missing). Bytes of 248 and up are skipped, so every character is equally
 * likely (248 = 4 × 62).
 */
export function randomAlnum(length: number): string {
  const out: string[] = [];
  const bytes = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < 248 && out.length < length) out.push(ALNUM[byte % 62]);
    }
  }
  return out.join('');
}

/** WeCom's callback Token: letters and digits, at most 32. */
export const newCallbackToken = () => randomAlnum(32);

/** WeCom's EncodingAESKey: 43 characters of base64's alphabet; letters and digits are enough. */
export const newEncodingAesKey = () => randomAlnum(43);

/** The id of one reply, kept when the same reply is sent again, so it is sent once. */
export const newClientMsgId = () => randomAlnum(32);
