// The JavaScript and template sandbox's thread: QuickJS (WebAssembly) loaded once per thread, a
// fresh QuickJS runtime for each code run, a warm frozen one for templates (template-runner.ts).
// Bundled as workflow-quickjs.worker.mjs beside the sandbox process (sandbox-bundle.ts).
// First: closes Node's ways out before the interpreter loads and captures them.
import './host-escapes.ts';
import { getQuickJS } from 'quickjs-emscripten';
import { serveFileTasks } from '../../../platform/file-workers/serve-file-tasks.ts';
import { RETIRE_MARK, type SandboxOutcome, type SandboxRequest } from './protocol.ts';
import { runJavaScript } from './quickjs-runner.ts';
import { renderTemplate } from './template-runner.ts';
import { capWasmMemory } from './wasm-memory-cap.ts';

const memory = capWasmMemory();
const QuickJS = await getQuickJS();
/**
 * QuickJS's WebAssembly memory before it first grows (its build's initial 16 MB); a run may grow it
 * by its limit beyond that, no further (wasm-memory-cap.ts). Memory never shrinks, so a thread that
 * once reached the cap stays there, and later runs reuse that space.
 */
const LOADED_BYTES = 16 * 1024 * 1024;

serveFileTasks<SandboxRequest>(
  async (request, task) => {
    task.emit('started');
    const limits = {
      timeoutMs: request.timeoutMs,
      memoryMb: request.memoryMb,
      interrupt: new Int32Array(request.interrupt),
    };
    memory.limit((memory.initialBytes ?? LOADED_BYTES) + request.memoryMb * 1024 * 1024);
    const started = performance.now();
    let outcome: SandboxOutcome;
    try {
      outcome =
        request.kind === 'template'
          ? renderTemplate(QuickJS, request.template, request.varsJson, limits)
          : runJavaScript(QuickJS, request.code, request.argsJson, limits);
    } catch (error) {
      // The module aborted or the native stack ran out: this thread's QuickJS cannot be trusted.
      const broken = new Error('the sandbox broke');
      broken.stack = `${RETIRE_MARK}${JSON.stringify({
        ok: false,
        kind: 'error',
        detail: error instanceof Error ? error.message : String(error),
      } satisfies SandboxOutcome)}`;
      throw broken;
    }
    return outcome.ok ? { ...outcome, elapsedMs: performance.now() - started } : outcome;
  },
  () => null,
);
