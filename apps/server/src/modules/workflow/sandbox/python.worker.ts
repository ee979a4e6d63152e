// The Python sandbox's thread: Pyodide loaded once when the thread starts (the first Python run
// pays for it), locked down (python-lockdown.ts), then one run at a time. A run that was
// interrupted or ran out of memory retires the thread; the pool starts a clean one.
// Bundled as workflow-python.worker.mjs beside the sandbox process (sandbox-bundle.ts).
// First: closes Node's ways out before the interpreter loads and captures them.
import './host-escapes.ts';
import { serveFileTasks } from '../../../platform/file-workers/serve-file-tasks.ts';
import { type CodeRequest, MAX_RESULT_CHARS, RETIRE_MARK, type SandboxOutcome } from './protocol.ts';
import { loadLockedPyodide } from './python-lockdown.ts';

const python = await loadLockedPyodide();

function retire(outcome: SandboxOutcome): never {
  const error = new Error('the Python thread retires');
  error.stack = `${RETIRE_MARK}${JSON.stringify(outcome)}`;
  throw error;
}

serveFileTasks<CodeRequest>(
  async (request, task) => {
    task.emit('started');
    python.limitMemory(request.memoryMb);
    python.setInterrupt(new Int32Array(request.interrupt));
    const started = performance.now();
    let text: string;
    try {
      text = python.run(request.code, request.argsJson, MAX_RESULT_CHARS);
    } catch (error) {
      // Pyodide itself failed (a fatal error: the WebAssembly stack ran out, say): never reuse it.
      retire({
        ok: false,
        kind: 'error',
        detail: error instanceof Error ? error.message.slice(0, 2_000) : String(error),
      });
    }
    const { retire: mustRetire, ...outcome } = JSON.parse(text) as SandboxOutcome & { retire?: boolean };
    if (mustRetire) retire(outcome);
    return outcome.ok ? { ...outcome, elapsedMs: performance.now() - started } : outcome;
  },
  () => null,
);
