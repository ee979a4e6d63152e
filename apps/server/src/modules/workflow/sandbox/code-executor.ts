import type { NodeExecutor } from '@athena/workflow-engine';
import { checkOutputs } from './code-outputs.ts';
import { codeFailure } from './node-failure.ts';
import type { Sandbox } from './sandbox.ts';

/** The code node's executor for the runs of one space (its Python threads serve no other space). */
export type CodeExecutorForSpace = (spaceId: string) => NodeExecutor<'code'>;

/**
 * The code node: `main(args)` (JavaScript) or `main(**args)` (Python, Dify's convention) with the
 * node's variables, in the sandbox; its result, checked against the declared outputs, becomes the
 * node's outputs.
 */
export function createCodeExecutor(sandbox: Sandbox): CodeExecutorForSpace {
  return (spaceId) => async (context) => {
    const { language, variables, code, outputs } = context.node.data;
    const args = Object.fromEntries(variables.map(({ name, selector }) => [name, context.read(selector) ?? null]));
    try {
      const { value } = await sandbox.runCode(language, code, args, { signal: context.signal, space: spaceId });
      return { outputs: checkOutputs(value, outputs), inputs: args };
    } catch (error) {
      throw codeFailure(error, sandbox, language);
    }
  };
}
