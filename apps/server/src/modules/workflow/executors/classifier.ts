import type { NodeExecutor } from '@athena/workflow-engine';
import { classIn } from './json-reply.ts';
import { callModel, type ModelDeps } from './model-call.ts';

const asText = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value));

/**
 * A question classifier: the model is asked for one class id and the node leaves by that class's
 * handle. A reply that names no class takes the first one, as Dify does, and says so in its
 * outputs (`matched: false`), so the run's record shows the guess.
 */
export function classifierExecutor(deps: ModelDeps): NodeExecutor<'classifier'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const query = asText(ctx.read(data.query));
    const instruction = ctx.render(data.instruction);
    const classes = data.classes.map((choice) => ({ id: choice.id, name: choice.name }));
    const system = [
      'Classify the user input into exactly one of these classes (JSON, id and description):',
      JSON.stringify(classes),
      instruction && `Extra instructions: ${instruction}`,
      'Answer with the id of the chosen class only.',
    ]
      .filter(Boolean)
      .join('\n');
    const reply = await callModel({
      deps,
      choice: data,
      nodeTitle: ctx.node.title || ctx.node.id,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: query || ' ' },
      ],
      signal: ctx.signal,
    });
    const found = classIn(reply.text, classes);
    const chosen = found ?? classes[0];
    return {
      outputs: { class_id: chosen.id, class_name: chosen.name, matched: found !== null },
      inputs: { query, instruction, reply: reply.text, model: reply.model },
      tokens: reply.tokens,
      branch: chosen.id,
    };
  };
}
