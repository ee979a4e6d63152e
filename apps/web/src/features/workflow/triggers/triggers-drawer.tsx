import { Alert, Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSpaceId } from '../../../shared/hooks/use-current-space.ts';
import { useWorkflowDetail } from '../editor/editor-queries.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { ScheduleSection } from './schedule-section.tsx';
import { exampleInputs } from './trigger-samples.ts';
import { WebhookSection } from './webhook-section.tsx';

interface Props {
  open: boolean;
  workflowId: string;
  onClose: () => void;
}

/** "API & triggers" of one workflow: what runs its effective version from outside. */
export function TriggersDrawer({ open, workflowId, onClose }: Props) {
  const { t } = useTranslation();
  const spaceId = useSpaceId();
  const detail = useWorkflowDetail(spaceId, workflowId);
  const workflow = detail.data;
  const start = workflow?.draft.nodes.find((node) => node.type === 'start');
  const inputs = exampleInputs(start?.type === 'start' ? start.data.inputs : []);
  const section = { spaceId, workflowId, canChange: workflow?.can_edit ?? false, inputs };
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('workflowTriggers.title')}
      size="large"
      destroyOnHidden
      data-testid="wf-triggers-drawer"
    >
      {workflow && !workflow.effective ? (
        <Alert
          type="info"
          showIcon
          title={t('workflowTriggers.notEffective')}
          style={{ marginBottom: 12 }}
          data-testid="wf-triggers-not-effective"
        />
      ) : null}
      <Tabs
        items={[
          { key: 'api', label: t('workflowTriggers.tabs.api'), children: <ApiKeysSection {...section} /> },
          { key: 'webhook', label: t('workflowTriggers.tabs.webhook'), children: <WebhookSection {...section} /> },
          { key: 'schedule', label: t('workflowTriggers.tabs.schedule'), children: <ScheduleSection {...section} /> },
        ]}
      />
    </Drawer>
  );
}
