// The code and template nodes' sandbox (docs/workflow-sandbox.md): the workflow module creates one
// with createSandbox, passes its executors to the engine and closes it when the server stops.
export { createCodeExecutor } from './code-executor.ts';
export { createSandbox, type Sandbox, SandboxFailure, type SandboxOptions } from './sandbox.ts';
export { createTemplateExecutor } from './template-executor.ts';
