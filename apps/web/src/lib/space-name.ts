import type { SpaceSummary } from '@athena/contract';
import type { TFunction } from 'i18next';

/** The default names the server gives a personal space at sign-up, one per language. */
const DEFAULT_PERSONAL_NAME = /^(.+?)(?:的空间|的空間|'s space)$/;

/**
 * A space's name as this reader should see it. A personal space still named the sign-up default
 * ("用户0002HU的空间") is named in the current language, after the owner's current nickname (only
 * its owner ever sees it): "Athena tester's space" once they renamed themselves and switched to
 * English. Any other name is one a person chose, shown as stored.
 */
export function spaceDisplayName(
  space: Pick<SpaceSummary, 'name' | 'personal'>,
  t: TFunction,
  ownNickname?: string,
): string {
  const signUpOwner = space.personal ? DEFAULT_PERSONAL_NAME.exec(space.name)?.[1] : undefined;
  if (!signUpOwner) return space.name;
  return t('header.personalSpaceName', { nickname: ownNickname || signUpOwner });
}
