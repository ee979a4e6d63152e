import { DEFAULT_SCENE_ID, INGEST_SCENES, type TeamAction } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';

export interface ChatScope {
  spaceId: string;
  sceneId: number;
  userId: string;
}

/**
 * The space and scene a chat-history call acts in: the permission first, then the scene of the
 * `scene-id` header (the web client always sends one; a caller without it means the default
 * WeCom customer-service scene). The agent scene and "undefined" have no chat history.
 */
export function chatScope(ctx: AuthContext, action: TeamAction): ChatScope {
  const space = authorize(ctx, action);
  const header = ctx.request.headers['scene-id'];
  const sceneId = header === undefined || header === '' ? DEFAULT_SCENE_ID : Number(header);
  if (!Number.isInteger(sceneId) || !INGEST_SCENES.includes(sceneId)) throw new AppError('CHAT_SCENE_INVALID');
  return { spaceId: space.id, sceneId, userId: ctx.userId };
}
