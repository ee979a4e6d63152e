import type { SpaceSummary } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import { spaceDisplayName } from '../../lib/space-name.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** Names spaces the way lib/space-name.ts says, in the reader's language and nickname. */
export function useSpaceName() {
  const { t } = useTranslation();
  const nickname = useUserStore((s) => s.userinfo?.nickname);
  return (space: Pick<SpaceSummary, 'name' | 'personal'>) => spaceDisplayName(space, t, nickname);
}
