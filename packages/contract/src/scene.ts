import { z } from 'zod';
import type { Language } from './languages.ts';
import { text } from './text.ts';

/** Scene source values (requirements.md, Entities): the customer-service channel a conversation came from. */
export const SCENE_SOURCE = {
  agent: 10010,
  undefined: 0,
  wxkf: 1,
  quntool: 5,
  xhsKol: 7,
  sphKol: 8,
  tkKol: 9,
  grwx: 10,
  dykol: 11,
  mail: 12,
  google: 13,
  boss: 14,
  demand: 15,
  qywxAutoAdd: 16,
  qianniu: 17,
  gzhkol: 18,
  xhsQun: 19,
} as const;

export type SceneSourceName = keyof typeof SCENE_SOURCE;

/** Scene 5 is the Enterprise-WeChat customer-service default (requirements.md, Limits). */
export const DEFAULT_SCENE_ID = 5;
export const AGENT_SCENE_ID = SCENE_SOURCE.agent;

export const sceneSchema = z.object({
  label: text(),
  type: z.number().int(),
  value: text(),
  /** Host that serves this scene's API; empty means this server. */
  quntool_host: text(),
});
export type Scene = z.infer<typeof sceneSchema>;

/**
 * The scenes this product serves, in the order the scene picker lists them (the WeCom default
 * first), with their names in each language. "undefined" (0) is a source value, not a scene.
 */
export const SCENE_LABELS: { type: number; label: Record<Language, string> }[] = [
  {
    type: SCENE_SOURCE.quntool,
    label: { 'zh-CN': '企业微信客服', 'zh-TW': '企業微信客服', en: 'Enterprise WeChat customer service' },
  },
  { type: SCENE_SOURCE.wxkf, label: { 'zh-CN': '微信客服', 'zh-TW': '微信客服', en: 'WeChat customer service' } },
  { type: SCENE_SOURCE.grwx, label: { 'zh-CN': '个人微信', 'zh-TW': '個人微信', en: 'Personal WeChat' } },
  {
    type: SCENE_SOURCE.qywxAutoAdd,
    label: { 'zh-CN': '企业微信自动加好友', 'zh-TW': '企業微信自動加好友', en: 'WeCom auto-add contacts' },
  },
  {
    type: SCENE_SOURCE.gzhkol,
    label: { 'zh-CN': '公众号达人', 'zh-TW': '公眾號達人', en: 'Official-account creators' },
  },
  {
    type: SCENE_SOURCE.sphKol,
    label: { 'zh-CN': '视频号达人', 'zh-TW': '視頻號達人', en: 'WeChat Channels creators' },
  },
  { type: SCENE_SOURCE.xhsKol, label: { 'zh-CN': '小红书达人', 'zh-TW': '小紅書達人', en: 'Xiaohongshu creators' } },
  { type: SCENE_SOURCE.xhsQun, label: { 'zh-CN': '小红书群', 'zh-TW': '小紅書群', en: 'Xiaohongshu groups' } },
  { type: SCENE_SOURCE.dykol, label: { 'zh-CN': '抖音达人', 'zh-TW': '抖音達人', en: 'Douyin creators' } },
  { type: SCENE_SOURCE.tkKol, label: { 'zh-CN': 'TikTok 达人', 'zh-TW': 'TikTok 達人', en: 'TikTok creators' } },
  { type: SCENE_SOURCE.qianniu, label: { 'zh-CN': '千牛', 'zh-TW': '千牛', en: 'Qianniu (Taobao sellers)' } },
  { type: SCENE_SOURCE.boss, label: { 'zh-CN': 'BOSS 直聘', 'zh-TW': 'BOSS 直聘', en: 'BOSS Zhipin' } },
  { type: SCENE_SOURCE.mail, label: { 'zh-CN': '邮件', 'zh-TW': '郵件', en: 'Email' } },
  { type: SCENE_SOURCE.google, label: { 'zh-CN': 'Google', 'zh-TW': 'Google', en: 'Google' } },
  { type: SCENE_SOURCE.demand, label: { 'zh-CN': '需求', 'zh-TW': '需求', en: 'Requests' } },
  { type: SCENE_SOURCE.agent, label: { 'zh-CN': '智能体', 'zh-TW': '智能體', en: 'Agents' } },
];
