import { z } from 'zod';

export const mcpCallCancel = z.object({ callKey: z.string().max(200) });

declare module '../../platform/events.ts' {
  interface BroadcastEvents {
    /** A client cancelled a tool call (`notifications/cancelled`): the process running it aborts it. Keyed `<token id>:<request id>`. */
    'mcp.call-cancel': z.infer<typeof mcpCallCancel>;
  }
}
