import type { KnowledgeGroup } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import {
  type GroupFilter,
  GroupSideList,
  type GroupSideListProps,
  UNGROUPED,
} from '../../shared/ui/group-side-list.tsx';
import { useGroupPermissions } from './knowledge-permissions.ts';

export type { GroupFilter, KnowledgeGroup };
export { UNGROUPED };

type Props = Omit<GroupSideListProps<KnowledgeGroup>, 'countOf' | 'may' | 'texts' | 'testId' | 'testIdPrefix'>;

/** The knowledge groups beside the bases, with each group's count of bases. */
export function GroupList(props: Props) {
  const { t } = useTranslation();
  const may = useGroupPermissions();
  return (
    <GroupSideList
      {...props}
      countOf={(group) => group.knowledge_count}
      may={may}
      texts={{
        title: t('knowledge.groups.title'),
        create: t('knowledge.groups.create'),
        all: t('knowledge.groups.all'),
        ungrouped: t('knowledge.groups.ungrouped'),
        empty: t('knowledge.groups.empty'),
        rename: t('knowledge.groups.rename'),
        delete: t('knowledge.groups.delete'),
        actions: (name) => t('knowledge.groups.actions', { name }),
      }}
      testId="knowledge-groups"
      testIdPrefix=""
    />
  );
}
