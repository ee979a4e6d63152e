import { type WorkflowNode, workflowNodeSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { environmentRefusals } from './environment-rules.ts';
import { handGivenValue, wantedValues } from './node-run-values.ts';

const node = (value: unknown): WorkflowNode => workflowNodeSchema.parse(value);
const titles = (id: string) => ({ start: 'Start', llm: 'LLM' })[id] ?? id;

describe('run this node: what it asks for', () => {
  it('asks once for each upstream value and sys value a node reads, never for env', () => {
    const llm = node({
      id: 'llm2',
      type: 'llm',
      data: {
        system_prompt: 'Use {{#env.STYLE#}}',
        user_prompt: '{{#start.q#}} {{#llm.text#}} {{#start.q#}} {{#sys.query#}}',
      },
    });
    expect(wantedValues(llm, titles)).toEqual([
      { key: 'start.q', label: 'Start · q' },
      { key: 'llm.text', label: 'LLM · text' },
      { key: 'sys.query', label: 'sys.query' },
    ]);
  });

  it('asks a start node for its own inputs, and a list operator not for its own items', () => {
    const start = node({
      id: 'start',
      type: 'start',
      data: { inputs: [{ name: 'q', label: 'Question', type: 'text' }] },
    });
    expect(wantedValues(start, titles)).toEqual([{ key: 'start.q', label: 'Question' }]);
    const list = node({
      id: 'ops',
      type: 'list_operator',
      data: {
        list: ['start', 'items'],
        filter: { conditions: [{ selector: ['ops', 'item'], operator: 'not_empty' }] },
      },
    });
    expect(wantedValues(list, titles).map((item) => item.key)).toEqual(['start.items']);
  });

  it('sends text that parses as JSON as its value, other text as it is', () => {
    expect([handGivenValue('42'), handGivenValue('["a"]'), handGivenValue('hello'), handGivenValue('')]).toEqual([
      42,
      ['a'],
      'hello',
      '',
    ]);
  });
});

describe('workflow settings: environment variables', () => {
  it('refuses bad names, a name twice and a number that is not one', () => {
    const refusals = environmentRefusals([
      { name: 'API_KEY', type: 'secret', value: 's' },
      { name: '1st', type: 'string', value: '' },
      { name: 'API_KEY', type: 'string', value: '' },
      { name: 'LIMIT', type: 'number', value: 'ten' },
      { name: 'RATE', type: 'number', value: '0.5' },
    ]);
    expect([...refusals]).toEqual([
      [1, 'nameInvalid'],
      [2, 'nameTaken'],
      [3, 'numberInvalid'],
    ]);
  });
});
