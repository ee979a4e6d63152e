import type { ErrorKey } from '@athena/contract';

/** A business failure with a catalogue code; the error handler localises it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = 'AppError';
  }
}
