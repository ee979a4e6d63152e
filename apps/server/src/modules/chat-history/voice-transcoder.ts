import { createFileWorkerPool } from '../../platform/file-workers/file-worker-pool.ts';
import type { VoiceTaskRequest, VoiceTaskResult } from './voice-task.ts';

/**
 * Where the thread's code is: beside the bundled server (dist/, see scripts/build-server.mjs), or
 * as TypeScript beside this file when the server runs from source (tests, benchmarks, tsx).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './voice.worker.ts' : './chat-voice.worker.mjs', import.meta.url);

/**
 * Longer voice files are kept as they came (downloadable, not played in the page): WeCom's voice
 * messages last at most 60 s (about 100 KB of AMR); 2 MB is over 20 minutes, 20 MB of WAV.
 */
export const MAX_VOICE_BYTES = 2 * 1024 * 1024;

/**
 * Decodes WeCom voice messages (AMR) to WAV off the server's thread, one at a time, so the page
 * can play them (docs/wecom.md, "Media"). Null when the file is too long, broken, or the thread
 * ran out of time or memory: the original is then kept.
 */
export function createVoiceTranscoder() {
  const pool = createFileWorkerPool({ entry: WORKER_URL, maxWorkers: 1, heapMb: 256, timeoutMs: 30_000 });
  return {
    async toWav(amr: Buffer): Promise<VoiceTaskResult | null> {
      if (amr.length > MAX_VOICE_BYTES) return null;
      try {
        return await pool.run<VoiceTaskResult>({ amr: new Uint8Array(amr) } satisfies VoiceTaskRequest);
      } catch {
        return null;
      }
    },
    close: () => pool.close(),
  };
}

export type VoiceTranscoder = ReturnType<typeof createVoiceTranscoder>;
