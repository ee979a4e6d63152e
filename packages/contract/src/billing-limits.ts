// Apart from billing.ts so that the error catalogue can state the limits in its messages without
// importing the routes (which import the catalogue).

/** One recharge: ¥1 to ¥50,000, in whole fen. Presets are what the dialog offers first. */
export const RECHARGE_LIMITS = {
  minFen: 100,
  maxFen: 5_000_000,
  presetsFen: [1_000, 5_000, 10_000, 50_000, 100_000, 500_000],
  /** An unpaid order closes after this long; the QR stops working at the provider too. */
  orderTtlSeconds: 15 * 60,
  /** Unpaid orders one team may have open at once. */
  maxOpenOrders: 5,
} as const;
