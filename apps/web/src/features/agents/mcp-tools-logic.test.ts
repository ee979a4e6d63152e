import type { McpExternalTool } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { groupMcpTools, refLabel, type ServerTools } from './mcp-tools-logic.ts';

const tool = (name: string, title = ''): McpExternalTool => ({
  name,
  title,
  description: `${name} tool`,
  input_schema: {},
});

const servers: ServerTools[] = [
  { id: 's1', name: 'Weather', enabled: true, tools: [tool('forecast', 'Forecast'), tool('alerts')] },
  { id: 's2', name: 'Files', enabled: false, tools: [tool('read:file')] },
  { id: 's3', name: 'Slow', enabled: true, tools: undefined },
];

describe('MCP tools of the agent editor', () => {
  it('groups the tools by server with their refs, in order', () => {
    const { groups, missing } = groupMcpTools(servers, [], true);
    expect(groups.map((group) => [group.serverName, group.enabled, group.loaded])).toEqual([
      ['Weather', true, true],
      ['Files', false, true],
      ['Slow', true, false],
    ]);
    expect(groups[0]?.tools.map((item) => item.ref)).toEqual(['s1:forecast', 's1:alerts']);
    // A tool name may hold a colon: the ref splits at the first one.
    expect(groups[1]?.tools[0]).toMatchObject({ ref: 's2:read:file', name: 'read:file' });
    expect(missing).toEqual([]);
  });

  it('finds saved refs whose server or tool is gone, once what they need was read', () => {
    const saved = ['s1:forecast', 's1:gone', 'sX:anything', 's3:unknown', 's2:read:file', 'broken', 's1:gone'];
    const { missing } = groupMcpTools(servers, saved, true);
    expect(missing).toEqual([
      { ref: 's1:gone', serverId: 's1', tool: 'gone', reason: 'tool' },
      { ref: 'sX:anything', serverId: 'sX', tool: 'anything', reason: 'server' },
      { ref: 'broken', serverId: '', tool: 'broken', reason: 'invalid' },
    ]);
  });

  it('calls nothing missing while the server list is still loading', () => {
    const { missing } = groupMcpTools([], ['s1:forecast', 'sX:anything'], false);
    expect(missing).toEqual([]);
  });

  it('names a chosen ref by server and tool title', () => {
    const { groups } = groupMcpTools(servers, [], true);
    expect(refLabel('s1:forecast', groups)).toBe('Weather / Forecast');
    expect(refLabel('s1:alerts', groups)).toBe('Weather / alerts');
    expect(refLabel('sX:thing', groups)).toBe('sX / thing');
    expect(refLabel('broken', groups)).toBe('broken');
  });
});
