import type { Agent } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { isDirty, toUpdateBody, toValues } from './editor-values.ts';

const agent: Agent = {
  id: 'a1',
  public_id: 'agent-x',
  name: 'Helper',
  avatar_url: null,
  description: 'Helps',
  system_prompt: 'Be brief.',
  opening_message: 'Hi!',
  suggested_questions: ['What can you do?'],
  model_key_id: null,
  params: { temperature: 0.7, max_tokens: null },
  attachments: { knowledge_ids: [], workflow_ids: [], mcp_tools: [] },
  share: { enabled: false, url: null },
  created_by: { id: 'u1', nickname: 'Ann', former_member: false },
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

describe('editor values', () => {
  it('round-trips an agent without changes', () => {
    expect(isDirty(agent, toValues(agent))).toBe(false);
    expect(toUpdateBody(agent, toValues(agent))).toMatchObject({ avatar_url: null, model_key_id: null });
  });

  it('turns blanks into the API’s nulls and drops empty questions', () => {
    const body = toUpdateBody(agent, {
      ...toValues(agent),
      name: '  New  ',
      avatar_url: '  ',
      suggested_questions: [' a ', '', '  '],
      model_key_id: 'k1',
      max_tokens: 256,
    });
    expect(body).toMatchObject({
      name: 'New',
      avatar_url: null,
      suggested_questions: ['a'],
      model_key_id: 'k1',
      params: { temperature: 0.7, max_tokens: 256 },
    });
  });

  it('saves the attached knowledge bases and keeps the other attachments', () => {
    const withOthers = { ...agent, attachments: { knowledge_ids: ['k1'], workflow_ids: ['w1'], mcp_tools: [] } };
    expect(toValues(withOthers).knowledge_ids).toEqual(['k1']);
    const body = toUpdateBody(withOthers, { ...toValues(withOthers), knowledge_ids: ['k2', 'k1', 'k2'] });
    expect(body.attachments).toEqual({ knowledge_ids: ['k2', 'k1'], workflow_ids: ['w1'], mcp_tools: [] });
    expect(isDirty(withOthers, { ...toValues(withOthers), knowledge_ids: ['k1', 'k2'] })).toBe(true);
    expect(isDirty(withOthers, toValues(withOthers))).toBe(false);
  });

  it('saves the chosen MCP tools without repeats', () => {
    const withTools = { ...agent, attachments: { knowledge_ids: ['k1'], workflow_ids: [], mcp_tools: ['s1:a'] } };
    expect(toValues(withTools).mcp_tools).toEqual(['s1:a']);
    const body = toUpdateBody(withTools, { ...toValues(withTools), mcp_tools: ['s1:a', 's2:b', 's1:a'] });
    expect(body.attachments).toEqual({ knowledge_ids: ['k1'], workflow_ids: [], mcp_tools: ['s1:a', 's2:b'] });
    expect(isDirty(withTools, { ...toValues(withTools), mcp_tools: [] })).toBe(true);
    expect(isDirty(withTools, toValues(withTools))).toBe(false);
  });

  it('does not call an added blank question a change', () => {
    expect(isDirty(agent, { ...toValues(agent), suggested_questions: ['What can you do?', ''] })).toBe(false);
    expect(isDirty(agent, { ...toValues(agent), temperature: 1 })).toBe(true);
  });
});
