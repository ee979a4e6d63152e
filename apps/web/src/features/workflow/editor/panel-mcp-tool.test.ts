import type { McpExternalTool } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { argumentsFor, propertiesOf } from './panel-mcp-tool.tsx';

const tool: McpExternalTool = {
  name: 'search_issues',
  title: '',
  description: 'Searches issues',
  input_schema: {
    type: 'object',
    properties: {
      limit: { type: 'integer', description: 'At most this many' },
      query: { type: 'string', description: 'What to look for' },
      labels: { type: ['array', 'null'] },
    },
    required: ['query'],
  },
};

describe('the MCP tool node panel', () => {
  it('lists the schema’s properties, required first, with their types', () => {
    expect(propertiesOf(tool)).toEqual([
      { name: 'query', type: 'string', description: 'What to look for', required: true },
      { name: 'limit', type: 'integer', description: 'At most this many', required: false },
      { name: 'labels', type: 'array | null', description: '', required: false },
    ]);
    expect(propertiesOf(undefined)).toEqual([]);
    expect(propertiesOf({ ...tool, input_schema: { type: 'object' } })).toEqual([]);
  });

  it('keeps typed values for the properties and shows kept arguments the schema does not name', () => {
    const kept = [
      { name: 'limit', value: '5' },
      { name: 'old', value: '{{#start.x#}}' },
    ];
    expect(argumentsFor(propertiesOf(tool), kept)).toEqual([
      { name: 'query', value: '' },
      { name: 'limit', value: '5' },
      { name: 'labels', value: '' },
      { name: 'old', value: '{{#start.x#}}' },
    ]);
  });
});
