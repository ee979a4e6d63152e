import { ERRORS, type WorkflowGroup, workflowRoutes } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { GroupNameModal as NameModal } from '../../shared/ui/group-name-modal.tsx';
import { refreshWorkflowLists } from './workflow-queries.ts';

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new group. */
  group: WorkflowGroup | null;
  onClose: () => void;
}

/** Creates a workflow group or renames one. */
export function GroupNameModal({ open, spaceId, group, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <NameModal
      open={open}
      initialName={group?.name ?? ''}
      texts={{
        title: group ? t('workflows.groups.renameTitle') : t('workflows.groups.createTitle'),
        ok: group ? t('workflows.form.save') : t('workflows.groups.createOk'),
        cancel: t('workflows.form.cancel'),
        label: t('workflows.groups.name'),
        tooLong: ERRORS.WORKFLOW_NAME_TOO_LONG.msg[currentLocale()],
      }}
      testIdPrefix="workflow-"
      save={async (name) => {
        if (group) await api(workflowRoutes.groupRename, { id: group.id, name });
        else await api(workflowRoutes.groupCreate, { name });
        await refreshWorkflowLists(spaceId);
      }}
      onClose={onClose}
    />
  );
}
