import { z } from 'zod';

export const workflowRunCancel = z.object({ runId: z.string().max(100) });

declare module '../../platform/events.ts' {
  interface BroadcastEvents {
    /** Someone cancelled a run: the process that runs it aborts it. */
    'workflow.run-cancel': z.infer<typeof workflowRunCancel>;
  }
}
