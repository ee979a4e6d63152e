import { agentMcpToolRef, type McpExternalTool, parseAgentMcpToolRef } from '@athena/contract';

/** What the field needs of one external server: its id, name, switch, and its cached tools once read. */
export interface ServerTools {
  id: string;
  name: string;
  enabled: boolean;
  /** undefined while (or if) the tool list could not be read: its refs are then not judged. */
  tools: McpExternalTool[] | undefined;
}

export interface ToolChoice {
  ref: string;
  name: string;
  title: string;
  description: string;
}

export interface ServerGroup {
  serverId: string;
  serverName: string;
  enabled: boolean;
  loaded: boolean;
  tools: ToolChoice[];
}

/** A saved ref that no longer names a tool: its server was removed, or the server no longer lists the tool. */
export interface MissingRef {
  ref: string;
  serverId: string;
  tool: string;
  reason: 'server' | 'tool' | 'invalid';
}

/**
 * The field's choices, one group per server (servers in the list's order, tools in the server's
 * order), and the saved refs that no longer exist. A ref is judged only when what it needs was
 * read: its server is judged once the server list is (`serversLoaded`), its tool once that
 * server's tools are. Nothing unread is called missing.
 */
export function groupMcpTools(
  servers: ServerTools[],
  saved: readonly string[],
  serversLoaded: boolean,
): { groups: ServerGroup[]; missing: MissingRef[] } {
  const groups = servers.map((server) => ({
    serverId: server.id,
    serverName: server.name,
    enabled: server.enabled,
    loaded: server.tools !== undefined,
    tools: (server.tools ?? []).map((tool) => ({
      ref: agentMcpToolRef(server.id, tool.name),
      name: tool.name,
      title: tool.title,
      description: tool.description,
    })),
  }));
  const byId = new Map(servers.map((server) => [server.id, server]));
  const missing: MissingRef[] = [];
  for (const ref of new Set(saved)) {
    const parsed = parseAgentMcpToolRef(ref);
    if (!parsed) {
      missing.push({ ref, serverId: '', tool: ref, reason: 'invalid' });
      continue;
    }
    const server = byId.get(parsed.serverId);
    if (!server) {
      if (serversLoaded) missing.push({ ref, ...parsed, reason: 'server' });
      continue;
    }
    if (server.tools && !server.tools.some((tool) => tool.name === parsed.tool)) {
      missing.push({ ref, ...parsed, reason: 'tool' });
    }
  }
  return { groups, missing };
}

/** How a chosen ref is named in its tag: `server / tool` (the tool's title when it has one). */
export function refLabel(ref: string, groups: ServerGroup[]): string {
  const parsed = parseAgentMcpToolRef(ref);
  if (!parsed) return ref;
  const group = groups.find((item) => item.serverId === parsed.serverId);
  const tool = group?.tools.find((item) => item.name === parsed.tool);
  return `${group?.serverName ?? parsed.serverId} / ${tool?.title || parsed.tool}`;
}
