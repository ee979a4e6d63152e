import { ERRORS, knowledgeRoutes } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { GroupNameModal as NameModal } from '../../shared/ui/group-name-modal.tsx';
import type { KnowledgeGroup } from './group-list.tsx';
import { refreshKnowledge } from './knowledge-queries.ts';

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new group. */
  group: KnowledgeGroup | null;
  onClose: () => void;
  onSaved?: (group: KnowledgeGroup) => void;
}

/** Creates a knowledge group or renames one. */
export function GroupNameModal({ open, spaceId, group, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <NameModal
      open={open}
      initialName={group?.name ?? ''}
      texts={{
        title: group ? t('knowledge.groups.renameTitle') : t('knowledge.groups.createTitle'),
        ok: group ? t('knowledge.save') : t('knowledge.groups.createOk'),
        cancel: t('knowledge.cancel'),
        label: t('knowledge.groups.name'),
        tooLong: ERRORS.KNOWLEDGE_NAME_TOO_LONG.msg[currentLocale()],
      }}
      testIdPrefix=""
      save={async (name) => {
        const saved = group
          ? await api(knowledgeRoutes.groupRename, { id: group.id, name })
          : await api(knowledgeRoutes.groupCreate, { name });
        await refreshKnowledge(spaceId);
        onSaved?.(saved);
      }}
      onClose={onClose}
    />
  );
}
