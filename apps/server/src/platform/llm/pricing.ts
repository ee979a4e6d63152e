import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** A platform model's prices, in milli-fen (1/1000 fen) per 1 000 tokens. */
export interface ModelPricing {
  platformModelId: string;
  inputPrice: number;
  outputPrice: number;
}

/** What a priced call holds when it does not say how long its answer may be. */
export const DEFAULT_OUTPUT_HOLD_TOKENS = 4_096;

/**
 * The exact fee of a call in milli-fen, rounded up to the next milli-fen (¥0.00001): integers
 * only, so the figure the page shows is the figure the ledger collects.
 */
export function feeOf(pricing: ModelPricing, tokens: { input: number; output: number }) {
  const scaled =
    BigInt(tokens.input) * BigInt(pricing.inputPrice) + BigInt(tokens.output) * BigInt(pricing.outputPrice);
  return Number((scaled + 999n) / 1000n);
}

/**
 * Tokens a prompt can at most be, from its text: no tokenizer counts more tokens than UTF-8
 * bytes, and a rough third of that is a fair ceiling for the hold (Chinese is ~1 token a
 * character, 3 bytes each; English ~4 bytes a token). The hold is an estimate, never the fee.
 */
export function promptTokenCeiling(messages: ChatCompletionMessageParam[]) {
  return Math.ceil(Buffer.byteLength(JSON.stringify(messages)) / 3);
}

/** What to set aside before a call: its prompt and the longest answer it may give. */
export function holdFor(pricing: ModelPricing, messages: ChatCompletionMessageParam[], maxTokens?: number) {
  return Math.max(
    1,
    feeOf(pricing, { input: promptTokenCeiling(messages), output: maxTokens ?? DEFAULT_OUTPUT_HOLD_TOKENS }),
  );
}

/**
 * The billing side of a priced call, as the gateway sees it (the gateway never writes the
 * ledger): `hold` refuses with MODEL_BALANCE_INSUFFICIENT when the team cannot cover it; `settle`
 * charges the call's exact fee and gives the hold back; `release` gives it back unused.
 */
export interface UsageCharging {
  hold(spaceId: string, amountMillifen: number): Promise<number>;
  settle(
    holdId: number | null,
    charge: { spaceId: string; usageId: number; feeMillifen: number; model: string },
  ): Promise<void>;
  release(holdId: number): Promise<void>;
}
