import {
  DEFAULT_SCENE_ID,
  platformRoutes,
  SCENE_LABELS,
  type Scene,
  SMS_COOLDOWN_SECONDS,
  WECHAT_POLL_INTERVAL_MS,
} from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { publicRoute } from '../../platform/http/route.ts';

export interface PlatformFacts {
  version: string;
  wechatProvider: 'dev' | 'official';
  smsProvider: 'dev' | 'aliyun';
  agentApiBase: string;
  /** Scenes served by another host (SCENE_HOSTS): the web client sends their calls there. */
  sceneHosts: Record<string, string>;
  /** PUBLIC_URL as the operator set it, without a trailing slash; '' when it was not set. */
  publicUrl: string;
}

export function registerPlatformInfoRoutes(app: FastifyInstance, facts: PlatformFacts) {
  publicRoute(app, platformRoutes.info, () => ({
    version: facts.version,
    wechat_provider: facts.wechatProvider,
    sms_provider: facts.smsProvider,
    sms_cooldown_seconds: SMS_COOLDOWN_SECONDS,
    wechat_poll_interval_ms: WECHAT_POLL_INTERVAL_MS,
    agent_api_base: facts.agentApiBase,
    public_url: facts.publicUrl,
  }));

  publicRoute(app, platformRoutes.sceneList, (_body, ctx) => ({
    items: SCENE_LABELS.map(
      (scene): Scene => ({
        label: scene.label[ctx.language],
        type: scene.type,
        value: String(scene.type),
        quntool_host: facts.sceneHosts[String(scene.type)] ?? '',
      }),
    ),
    default_scene_id: DEFAULT_SCENE_ID,
  }));
}
