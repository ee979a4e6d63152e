/**
 * WeChat sign-in uses the official-account parametric QR design: we create a temporary QR whose
 * scene string is our login code; WeChat pushes a SCAN/subscribe event with that scene to our
 * callback, which marks the code as scanned by that openid.
 */
export interface WechatProvider {
  readonly name: 'dev' | 'official';
  /** Returns the QR content (the URL the QR image encodes) for this scene string. */
  createQr(sceneStr: string, expireSeconds: number): Promise<{ url: string }>;
}

/** What a scan tells us about the WeChat user. */
export interface WechatScan {
  sceneStr: string;
  openid: string;
  unionid?: string;
  nickname?: string;
  avatarUrl?: string;
}

export class WechatApiError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
    this.name = 'WechatApiError';
  }
}
