import { createRequire } from 'node:module';

/**
 * WeCom voice messages are AMR-NB, which no browser plays. The worker thread (voice.worker.ts)
 * decodes one to 16-bit PCM and writes it as WAV, which every browser plays, with seeking. The
 * decoder is opencore-amr compiled to JavaScript (benz-amr-recorder's amrnb.js, MIT), written as a
 * web worker: it answers on `self.postMessage`, which this thread stands in for.
 */

export interface VoiceTaskRequest {
  amr: Uint8Array;
}

export interface VoiceTaskResult {
  wav: Uint8Array;
  seconds: number;
}

/** AMR-NB is 8 000 samples a second, one channel. */
const SAMPLE_RATE = 8_000;

let decodeAmr: ((amr: Uint8Array) => Float32Array | null) | null = null;

function decoder() {
  if (decodeAmr) return decodeAmr;
  let answer: Float32Array | null = null;
  const scope = globalThis as unknown as { self?: unknown };
  scope.self = { postMessage: (message: { amr: Float32Array | null }) => (answer = message.amr) };
  createRequire(import.meta.url)('benz-amr-recorder/src/amrnb.js')();
  const worker = scope.self as { onmessage(event: { data: { command: string; buffer: Uint8Array } }): void };
  decodeAmr = (amr) => {
    answer = null;
    worker.onmessage({ data: { command: 'decode', buffer: amr } });
    return answer;
  };
  return decodeAmr;
}

export async function runVoiceTask(request: VoiceTaskRequest): Promise<VoiceTaskResult> {
  const samples = decoder()(request.amr);
  if (!samples || samples.length === 0) throw new VoiceRefusal('the voice message could not be decoded');
  return { wav: wavOf(samples), seconds: samples.length / SAMPLE_RATE };
}

/** A decoder refusal (not AMR, or broken): the original file is kept. */
export class VoiceRefusal extends Error {}

export const voiceRefusalOf = (error: unknown) =>
  error instanceof VoiceRefusal ? { code: 'VOICE_UNDECODABLE', detail: error.message } : null;

/** 16-bit little-endian PCM in a RIFF/WAVE container: a 44-byte header, then the samples. */
export function wavOf(samples: Float32Array): Uint8Array {
  const data = samples.length * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + data, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // one channel
  wav.writeUInt32LE(SAMPLE_RATE, 24);
  wav.writeUInt32LE(SAMPLE_RATE * 2, 28); // bytes a second
  wav.writeUInt16LE(2, 32); // bytes a frame
  wav.writeUInt16LE(16, 34); // bits a sample
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(data, 40);
  for (let i = 0; i < samples.length; i++) {
    const clamped = Math.max(-1, Math.min(1, samples[i]));
    wav.writeInt16LE(Math.round(clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff), 44 + i * 2);
  }
  return wav;
}
