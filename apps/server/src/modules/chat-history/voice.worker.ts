// The chat-history voice thread: decodes one WeCom voice message (AMR) to WAV at a time
// (voice-task.ts) under the pool's heap and time limits (voice-transcoder.ts). Bundled beside the
// server as dist/chat-voice.worker.mjs.
import { serveFileTasks } from '../../platform/file-workers/serve-file-tasks.ts';
import { runVoiceTask, voiceRefusalOf } from './voice-task.ts';

serveFileTasks(runVoiceTask, voiceRefusalOf);
