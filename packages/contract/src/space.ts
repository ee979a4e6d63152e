import { z } from 'zod';
import { defineRoute, emptyBody } from './envelope.ts';
import { text } from './text.ts';

const tag = 'space';

export const roleSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

export const spaceSummary = z.object({
  id: text(),
  name: text(),
  /** My role in this space. */
  role: roleSchema,
  /** Prepaid balance in fen (1/100 CNY). */
  balance: z.number().int(),
  personal: z.boolean(),
  member_count: z.number().int(),
  created_at: text(),
});
export type SpaceSummary = z.infer<typeof spaceSummary>;

export const spaceRoutes = {
  get: defineRoute({
    path: '/api/athena/v1/space/get',
    body: z.object({ id: text().min(1).max(64) }),
    data: spaceSummary,
    auth: true,
    summary: 'A space I belong to, with its balance',
    tag,
  }),
  select: defineRoute({
    path: '/api/athena/v1/space/select',
    body: z.object({ selected_space_id: text().min(1).max(64) }),
    data: spaceSummary,
    auth: true,
    summary: 'Switch to a space I belong to; remembered for my next sign-in',
    tag,
  }),
  list: defineRoute({
    path: '/api/athena/v1/space/list',
    body: emptyBody,
    data: z.object({ items: z.array(spaceSummary) }),
    auth: true,
    summary: 'Spaces I belong to, for the switcher',
    tag,
  }),
} as const;
