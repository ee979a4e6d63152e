import { DEFAULT_SCENE_ID, INGEST_SCENES, type TeamAction } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';

export interface ProfileScope {
  spaceId: string;
  sceneId: number;
  userId: string;
}

/**
 * The space and scene a profile call acts in, as for chat history (whose customers these are): the
 * permission first, then the `scene-id` header (none means the default WeCom customer-service
 * scene). Scenes without chat history have no customers to profile.
 */
export function profileScope(ctx: AuthContext, action: TeamAction): ProfileScope {
  const space = authorize(ctx, action);
  const header = ctx.request.headers['scene-id'];
  const sceneId = header === undefined || header === '' ? DEFAULT_SCENE_ID : Number(header);
  if (!Number.isInteger(sceneId) || !INGEST_SCENES.includes(sceneId)) throw new AppError('CHAT_SCENE_INVALID');
  return { spaceId: space.id, sceneId, userId: ctx.userId };
}
