import type { Agent } from '@athena/contract';
import { Alert, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiKeysCard } from './api-keys-card.tsx';
import { CodeSample } from './code-sample.tsx';
import { ShareLinkCard } from './share-link-card.tsx';

/** Everything that makes the agent usable outside the playground. */
export function PublishTab({ agent, spaceId, canEdit }: { agent: Agent; spaceId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16} style={{ padding: '4px 20px 20px' }} data-testid="publish-tab">
      {canEdit ? null : <Alert type="info" showIcon title={t('agents.publishReadonly')} />}
      <ShareLinkCard agent={agent} spaceId={spaceId} canEdit={canEdit} />
      <ApiKeysCard agentId={agent.id} spaceId={spaceId} canEdit={canEdit} />
      <CodeSample publicId={agent.public_id} />
    </Flex>
  );
}
