import { z } from 'zod';
import { defineRoute, emptyBody } from './envelope.ts';
import { sceneSchema } from './scene.ts';
import { text } from './text.ts';

export const platformRoutes = {
  info: defineRoute({
    path: '/api/athena/v1/platform/info',
    body: emptyBody,
    data: z.object({
      version: text(),
      wechat_provider: z.enum(['dev', 'official']),
      sms_provider: z.enum(['dev', 'aliyun']),
      sms_cooldown_seconds: z.number().int(),
      wechat_poll_interval_ms: z.number().int(),
      /** Prefix for agent-scene calls; empty means this server. */
      agent_api_base: text(),
      /**
       * The address others reach this server at (PUBLIC_URL); empty when the operator did not set
       * it, and then the browser's own address is the best guess for links shown to be shared.
       */
      public_url: text(),
    }),
    auth: false,
    summary: 'Public facts the web client needs before sign-in',
    tag: 'platform',
  }),
  sceneList: defineRoute({
    path: '/api/athena/v1/scene/list',
    body: emptyBody,
    data: z.object({ items: z.array(sceneSchema), default_scene_id: z.number().int() }),
    auth: false,
    summary: 'Customer-service scenes this deployment serves',
    tag: 'platform',
  }),
} as const;
