/**
 * A payment channel as the recharge orders see it (docs/billing.md, "Recharge"). The dev cashier,
 * WeChat Pay v3 Native and Alipay face-to-face each implement it; the orders service never knows
 * which protocol is behind it. Amounts are integer fen in both directions: a provider that speaks
 * yuan strings (Alipay) converts without a float.
 */
export type PaymentChannel = 'dev' | 'wechat' | 'alipay';

export interface CreateQrRequest {
  /** Our order number: 6–32 characters of [0-9A-Za-z], unique, what the provider files it under. */
  outTradeNo: string;
  amountFen: number;
  /** What the payer sees on their phone, e.g. "Athena 团队充值". */
  description: string;
  /** The provider must refuse payment after this moment. */
  expiresAt: Date;
}

/** The provider's view of one order, from a query or a verified notification. */
export type ProviderOrderState =
  | { state: 'paid'; outTradeNo: string; amountFen: number; providerTradeNo: string; paidAt: Date }
  | { state: 'pending'; outTradeNo: string }
  | { state: 'closed'; outTradeNo: string }
  | { state: 'not_found'; outTradeNo: string };

/** A notification that passed every check: signature on the raw body, time, merchant and app. */
export interface VerifiedNotice {
  /** Only 'paid' notices change anything; others are acknowledged and ignored. */
  order: ProviderOrderState;
}

/** What to send back to the provider's notification request. */
export interface NotifyAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface RefundRequest {
  outTradeNo: string;
  /** Ours, unique per refund; a retried refund with the same number refunds once. */
  outRefundNo: string;
  refundFen: number;
  totalFen: number;
  reason: string;
}

export interface PaymentProvider {
  readonly channel: PaymentChannel;
  /** Creates the order at the provider; returns what the payer's QR code encodes. */
  createQr(request: CreateQrRequest): Promise<{ codeUrl: string }>;
  /** Asks the provider about an order (the reconciliation job, and before closing). */
  query(outTradeNo: string): Promise<ProviderOrderState>;
  /** Closes an unpaid order so it can no longer be paid. Closing a closed order is not an error. */
  close(outTradeNo: string): Promise<void>;
  /** Returns money to the payer; resolves once the provider has accepted the refund. */
  refund(request: RefundRequest): Promise<{ providerRefundNo: string }>;
  /**
   * Checks a notification exactly as it arrived (headers lower-cased, the raw body bytes) and
   * returns what it says; throws `PaymentNoticeError` for anything forged, stale or foreign.
   */
  verifyNotice(headers: Record<string, string | undefined>, rawBody: Buffer): Promise<VerifiedNotice>;
  /** The answer the provider expects once the notice is handled (only after the credit committed). */
  readonly acknowledge: NotifyAnswer;
  /** The answer that makes the provider retry later. */
  readonly reject: NotifyAnswer;
}

/** A notification refused: the reason goes to the log, never to the sender. */
export class PaymentNoticeError extends Error {
  constructor(
    readonly reason: 'bad_signature' | 'unknown_serial' | 'stale' | 'foreign_merchant' | 'malformed' | 'decrypt_failed',
    message?: string,
  ) {
    super(message ?? reason);
    this.name = 'PaymentNoticeError';
  }
}

/** The provider answered with an error (HTTP status and its own code), or could not be reached. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
