import { ERRORS, type Language, MEDIA_FILE_MAX_BYTES } from '@athena/contract';

/** A smoothed transfer rate: the newest sample counts for a third, so one slow chunk does not jump the figure. */
export function nextSpeed(previous: number | null, bytes: number, ms: number): number | null {
  if (ms <= 0) return previous;
  const sample = (bytes / ms) * 1000;
  return previous === null ? sample : previous * (2 / 3) + sample / 3;
}

/** Seconds left at `speed` bytes per second; null when unknown. */
export function secondsLeft(total: number, sent: number, speed: number | null): number | null {
  if (speed === null || speed <= 0) return null;
  return Math.max(0, (total - sent) / speed);
}

/** The server's refusal for a file over 5 GB, said before a byte is sent. */
export function tooLargeText(size: number, language: Language): string | null {
  return size > MEDIA_FILE_MAX_BYTES ? ERRORS.MEDIA_FILE_TOO_LARGE.msg[language] : null;
}

/** The part of a tus error the panel needs: the HTTP status and the envelope's message, if any. */
export interface TusFailure {
  status: number | null;
  message: string;
}

/**
 * The message of a failed tus request: errors answer with the usual JSON envelope as body
 * (docs/media.md), already in the request's language; anything else (a network failure, a proxy's
 * HTML page) gets `fallback`.
 */
export function tusFailure(status: number | null, body: string | null, fallback: string): TusFailure {
  if (body) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'msg' in parsed &&
        typeof parsed.msg === 'string' &&
        parsed.msg
      ) {
        return { status, message: parsed.msg };
      }
    } catch {
      // Not the envelope: fall through to the generic text.
    }
  }
  return { status, message: fallback };
}

const MiB = 1024 * 1024;
/**
 * The chunk size for a file: about a hundred chunks, at least 8 MiB and at most 64 MiB. Every chunk
 * costs the server a fixed amount (the session, the upload's row, the quota), which at 8 MiB made
 * a 5 GB upload run at about three quarters of the disk's speed (docs/benchmarks.md, "Media");
 * 64 MiB stays far below any proxy's body limit, and a lost connection costs at most one chunk.
 */
export function chunkSizeFor(size: number): number {
  const hundredth = Math.ceil(size / 100 / MiB) * MiB;
  return Math.min(64 * MiB, Math.max(8 * MiB, hundredth));
}
