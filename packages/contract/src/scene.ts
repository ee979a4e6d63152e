import { z } from 'zod';
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
