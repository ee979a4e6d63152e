import { AppError } from '../../platform/http/app-error.ts';
import type { UserRepo } from '../auth/user.repo.ts';
import type { SpaceRepo } from './space.repo.ts';

export type SpaceService = ReturnType<typeof createSpaceService>;

export function createSpaceService(deps: { spaces: SpaceRepo; accounts: UserRepo }) {
  const { spaces, accounts } = deps;

  async function getMine(spaceId: string, userId: string) {
    const space = await spaces.getForUser(spaceId, userId);
    if (!space) throw new AppError('SPACE_UNAVAILABLE');
    return space;
  }

  return {
    getMine,
    list: (userId: string) => spaces.listForUser(userId),

    async select(spaceId: string, userId: string) {
      const space = await getMine(spaceId, userId);
      await accounts.setLastSpace(userId, space.id);
      return space;
    },

    /**
     * The space the user works in now: the one the client names, else their chosen default space,
     * else the last one they chose (each only while they are still a member), else their first.
     */
    async current(userId: string, requested: string | null, lastSpaceId: string | null) {
      if (requested) return getMine(requested, userId);
      const defaultSpaceId = (await accounts.findById(userId))?.defaultSpaceId;
      const preferred = defaultSpaceId ? await spaces.getForUser(defaultSpaceId, userId) : null;
      if (preferred) return preferred;
      const last = lastSpaceId ? await spaces.getForUser(lastSpaceId, userId) : null;
      if (last) return last;
      const [first] = await spaces.listForUser(userId);
      return first ?? null;
    },
  };
}
