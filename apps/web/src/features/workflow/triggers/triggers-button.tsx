import { ApiOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { TriggersDrawer } from './triggers-drawer.tsx';

/** Opens "API & triggers" for the workflow of the page it is on (/ai-workflows/:workflowId). */
export function TriggersButton() {
  const { t } = useTranslation();
  const { workflowId = '' } = useParams();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<ApiOutlined />} onClick={() => setOpen(true)} data-testid="wf-triggers-button">
        {t('workflowTriggers.button')}
      </Button>
      {open ? <TriggersDrawer open workflowId={workflowId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
