import { z } from 'zod';

export const teamDissolved = z.object({ spaceId: z.string() });

declare module '../../platform/events.ts' {
  interface BroadcastEvents {
    /** A team was dissolved: what it held open (MCP sessions) ends on every process. */
    'team.dissolved': z.infer<typeof teamDissolved>;
  }
}
