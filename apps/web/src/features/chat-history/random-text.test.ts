import { wecomConnectBody } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { newCallbackToken, newClientMsgId, newEncodingAesKey, randomAlnum } from './random-text.ts';

describe('random text', () => {
  it('makes letters and digits of the asked length', () => {
    for (const length of [1, 32, 43, 100]) expect(randomAlnum(length)).toMatch(new RegExp(`^[A-Za-z0-9]{${length}}$`));
    expect(randomAlnum(32)).not.toBe(randomAlnum(32));
  });

  it('makes a Token and an EncodingAESKey WeCom and the server accept', () => {
    const body = {
      corpid: 'wwfake0000000000',
      secret: 'fake-kf-secret',
      callback_token: newCallbackToken(),
      encoding_aes_key: newEncodingAesKey(),
    };
    expect(wecomConnectBody.safeParse(body).success).toBe(true);
    expect(body.encoding_aes_key).toHaveLength(43);
    expect(newClientMsgId()).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});
