/**
 * Real-name verification by face check (人脸核身): the provider takes the person's name and ID
 * number, hands back a page where they complete the check, and later tells us how it went.
 */
export interface RealNameProvider {
  readonly name: 'dev' | 'tencent';
  /** Opens a check; `url` is the page the person visits, `token` the provider's handle for it. */
  start(input: { attemptId: string; name: string; idNumber: string; redirectUrl: string }): Promise<{
    token: string;
    url: string;
  }>;
  /** Where the check stands; `reason` (failed only) is a short human message from the provider. */
  result(token: string): Promise<RealNameResult>;
}

export interface RealNameResult {
  state: 'pending' | 'verified' | 'failed';
  reason?: string;
}

/** A provider call that did not produce an answer (transport, vendor API error, bad response). */
export class RealNameProviderError extends Error {
  constructor(
    message: string,
    /** The vendor's own error code, for the server log. */
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = 'RealNameProviderError';
  }
}
