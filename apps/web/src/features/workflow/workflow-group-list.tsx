import type { WorkflowGroup } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import { GroupSideList, type GroupSideListProps } from '../../shared/ui/group-side-list.tsx';
import { useWorkflowGroupPermissions } from './workflow-permissions.ts';

type Props = Omit<GroupSideListProps<WorkflowGroup>, 'countOf' | 'may' | 'texts' | 'testId' | 'testIdPrefix'>;

/** The workflow groups beside the workflows, with each group's count of workflows. */
export function WorkflowGroupList(props: Props) {
  const { t } = useTranslation();
  const may = useWorkflowGroupPermissions();
  return (
    <GroupSideList
      {...props}
      countOf={(group) => group.workflow_count}
      may={may}
      texts={{
        title: t('workflows.groups.title'),
        create: t('workflows.groups.create'),
        all: t('workflows.groups.all'),
        ungrouped: t('workflows.groups.ungrouped'),
        empty: t('workflows.groups.empty'),
        rename: t('workflows.groups.rename'),
        delete: t('workflows.groups.delete'),
        actions: (name) => t('workflows.groups.actions', { name }),
      }}
      testId="workflow-groups"
      testIdPrefix="workflow-"
    />
  );
}
