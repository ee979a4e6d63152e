/** Sends one verification code by text message. Implementations throw SmsSendError on failure. */
export interface SmsProvider {
  readonly name: 'dev' | 'aliyun';
  sendCode(phone: string, code: string): Promise<void>;
}

export class SmsSendError extends Error {
  constructor(
    message: string,
    /** The vendor's own error code, for the server log. */
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}
