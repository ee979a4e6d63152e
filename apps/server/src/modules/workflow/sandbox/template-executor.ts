import type { NodeExecutor } from '@athena/workflow-engine';
import { templateFailure } from './node-failure.ts';
import type { Sandbox } from './sandbox.ts';

/** The template node's executor for the runs of one space (its renders queue with the space's). */
export type TemplateExecutorForSpace = (spaceId: string) => NodeExecutor<'template'>;

/** The template node: its Jinja2 template rendered in the sandbox with its variables → `output`. */
export function createTemplateExecutor(sandbox: Sandbox): TemplateExecutorForSpace {
  return (spaceId) => async (context) => {
    const { variables, template } = context.node.data;
    const vars = Object.fromEntries(variables.map(({ name, selector }) => [name, context.read(selector) ?? null]));
    try {
      const { text } = await sandbox.renderTemplate(template, vars, { signal: context.signal, space: spaceId });
      return { outputs: { output: text }, inputs: vars };
    } catch (error) {
      throw templateFailure(error, sandbox);
    }
  };
}
