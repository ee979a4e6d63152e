import type { ErrorKey } from '@athena/contract';

/** A business failure with a catalogue code; the error handler localises it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    /** When a limit refused the call: the seconds until it may be tried again (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(key);
    this.name = 'AppError';
  }
}
