import { RECHARGE_STATUSES } from '@athena/contract';
import { z } from 'zod';

export const billingChanged = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('balance'), spaceId: z.string() }),
  z.object({ kind: z.literal('order'), spaceId: z.string(), orderId: z.string(), status: z.enum(RECHARGE_STATUSES) }),
]);

declare module '../../platform/events.ts' {
  interface BroadcastEvents {
    /** A team's balance changed, or one of its recharge orders changed state: the fees page and the header's balance update. */
    'billing.changed': z.infer<typeof billingChanged>;
  }
}
