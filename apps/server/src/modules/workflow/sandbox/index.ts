// The code and template nodes' sandbox (docs/workflow-sandbox.md): the workflow module creates one
// with createSandbox(sandboxOptionsOf(config)), passes its executors to the engine and closes it
// when the server stops.
import type { Config } from '../../../config.ts';
import type { SandboxOptions } from './protocol.ts';

export { type CodeExecutorForSpace, createCodeExecutor } from './code-executor.ts';
export { createSandbox, type Sandbox, SandboxFailure, type SandboxOptions } from './sandbox.ts';
export { createTemplateExecutor, type TemplateExecutorForSpace } from './template-executor.ts';

/** The sandbox's limits from the server's settings (CODE_SANDBOX_*). */
export function sandboxOptionsOf(config: Config): SandboxOptions {
  return {
    workers: config.CODE_SANDBOX_WORKERS,
    pythonWorkers: config.CODE_SANDBOX_PYTHON_WORKERS,
    memoryMb: config.CODE_SANDBOX_MEMORY_MB,
    pythonMemoryMb: config.CODE_SANDBOX_PYTHON_MEMORY_MB,
    timeoutMs: config.CODE_SANDBOX_TIMEOUT_MS,
  };
}
