import {
  AGENT_SCENE_ID,
  DEFAULT_SCENE_ID,
  type Language,
  platformRoutes,
  SCENE_SOURCE,
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
}

/** The scenes this deployment serves; all are answered by this server until hosts are configured. */
const SCENES: { type: number; label: Record<Language, string> }[] = [
  {
    type: DEFAULT_SCENE_ID,
    label: { 'zh-CN': '企业微信客服', 'zh-TW': '企業微信客服', en: 'Enterprise WeChat customer service' },
  },
  { type: SCENE_SOURCE.grwx, label: { 'zh-CN': '个人微信', 'zh-TW': '個人微信', en: 'Personal WeChat' } },
  { type: SCENE_SOURCE.xhsQun, label: { 'zh-CN': '小红书群', 'zh-TW': '小紅書群', en: 'Xiaohongshu groups' } },
  { type: AGENT_SCENE_ID, label: { 'zh-CN': '智能体', 'zh-TW': '智能體', en: 'Agents' } },
];

export function registerPlatformInfoRoutes(app: FastifyInstance, facts: PlatformFacts) {
  publicRoute(app, platformRoutes.info, () => ({
    version: facts.version,
    wechat_provider: facts.wechatProvider,
    sms_provider: facts.smsProvider,
    sms_cooldown_seconds: SMS_COOLDOWN_SECONDS,
    wechat_poll_interval_ms: WECHAT_POLL_INTERVAL_MS,
    agent_api_base: facts.agentApiBase,
  }));

  publicRoute(app, platformRoutes.sceneList, (_body, ctx) => ({
    items: SCENES.map(
      (scene): Scene => ({
        label: scene.label[ctx.language],
        type: scene.type,
        value: String(scene.type),
        quntool_host: '',
      }),
    ),
    default_scene_id: DEFAULT_SCENE_ID,
  }));
}
