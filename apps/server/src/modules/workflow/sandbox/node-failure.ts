import { NodeFailure } from '@athena/workflow-engine';
import { MAX_WAITING_PER_SPACE, type Sandbox, SandboxFailure } from './sandbox.ts';

/** A sandbox failure as the node's catalogue error; anything else (a bug, a closed pool) as it is. */
export function codeFailure(error: unknown, sandbox: Sandbox, language: 'javascript' | 'python3'): unknown {
  if (!(error instanceof SandboxFailure)) return error;
  const { timeoutMs, memoryMb, pythonMemoryMb } = sandbox.options;
  switch (error.kind) {
    case 'timeout':
      return new NodeFailure('WORKFLOW_CODE_TIMEOUT', { ms: timeoutMs }, error.detail);
    case 'memory':
      return new NodeFailure(
        'WORKFLOW_CODE_MEMORY',
        { mb: language === 'python3' ? pythonMemoryMb : memoryMb },
        error.detail,
      );
    case 'busy':
      return new NodeFailure('WORKFLOW_CODE_BUSY', { max: MAX_WAITING_PER_SPACE }, error.detail);
    case 'output':
      return new NodeFailure('WORKFLOW_CODE_OUTPUT_INVALID', { detail: error.detail }, error.detail);
    default:
      return new NodeFailure('WORKFLOW_CODE_ERROR', { detail: error.detail }, error.detail);
  }
}

/** Every template failure is WORKFLOW_TEMPLATE_ERROR; the detail says which limit, if one. */
export function templateFailure(error: unknown, sandbox: Sandbox): unknown {
  if (!(error instanceof SandboxFailure)) return error;
  const detail =
    error.kind === 'timeout'
      ? `the template ran longer than ${sandbox.options.timeoutMs} ms`
      : error.kind === 'memory'
        ? `the template needed more than ${sandbox.options.memoryMb} MB`
        : error.detail;
  return new NodeFailure('WORKFLOW_TEMPLATE_ERROR', { detail }, detail);
}
