import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * A local MCP server on 127.0.0.1 for tests (the SDK's own, stateless Streamable HTTP at `/mcp`):
 * `tools` builds a fresh server with its tools for each request. Reaching it needs the switch that
 * lets external servers sit on loopback (ALLOW_PRIVATE_MODEL_ENDPOINTS).
 */
export async function startLocalMcpServer(tools: () => McpServer) {
  const local = createServer(async (req, res) => {
    const server = tools();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(local.address() as AddressInfo).port}/mcp`,
    async close() {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    },
  };
}
