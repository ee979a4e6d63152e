import { ArrowLeftOutlined, CopyOutlined, DeleteOutlined, MoreOutlined } from '@ant-design/icons';
import { ERRORS } from '@athena/contract';
import { Alert, Button, Card, Dropdown, Empty, Flex, Grid, Skeleton, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { useAgentCommands, useAgentPermissions } from './agent-actions.ts';
import { AgentAvatar } from './agent-avatar.tsx';
import { AgentEditor } from './agent-editor.tsx';
import { useAgent } from './agent-queries.ts';
import { Playground } from './playground.tsx';
import { PublishTab } from './publish-tab.tsx';

/** Header (64) + the layout's padding (2 × 24): the two panes fill the rest of the window. */
const PANE_HEIGHT = 'calc(100vh - 112px)';

/** /agents/:agentId: the editor and publishing on the left, the playground on the right. */
export function AgentDetailPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { agentId = '' } = useParams();
  const spaceId = useSpaceId();
  const agent = useAgent(spaceId, agentId);
  const may = useAgentPermissions(agent.data);
  const commands = useAgentCommands(spaceId);
  const [tab, setTab] = useState('configure');
  const wide = Grid.useBreakpoint().xl;

  if (agent.isPending) {
    return (
      <Card data-testid="agent-loading">
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (agent.isError || !spaceId) {
    const missing = agent.error instanceof ApiError && agent.error.code === ERRORS.NOT_FOUND.code;
    return (
      <Card data-testid={missing ? 'agent-not-found' : 'agent-error'}>
        {missing ? (
          <Empty description={t('agents.notFound')}>
            <Button type="primary" onClick={() => go('agents')}>
              {t('agents.backToList')}
            </Button>
          </Empty>
        ) : (
          <Alert
            type="error"
            showIcon
            title={t('agents.loadOneFailed')}
            description={errorText(agent.error, currentLocale())}
            action={<Button onClick={() => void agent.refetch()}>{t('common.retry')}</Button>}
          />
        )}
      </Card>
    );
  }

  const data = agent.data;
  const menu = [
    ...(may.create ? [{ key: 'duplicate', icon: <CopyOutlined />, label: t('agents.duplicate') }] : []),
    ...(may.delete
      ? [{ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('agents.delete.action') }]
      : []),
  ];

  return (
    <Flex
      vertical
      gap={12}
      style={{ height: wide ? PANE_HEIGHT : undefined, minHeight: 0 }}
      data-testid="page-agentDetail"
      data-agent-id={data.id}
    >
      <Flex align="center" gap={12} style={{ flex: 'none' }}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          onClick={() => go('agents')}
          aria-label={t('agents.backToList')}
          data-testid="agent-back"
        />
        <AgentAvatar name={data.name} url={data.avatar_url} size={36} />
        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
          <Flex align="center" gap={8}>
            <Typography.Title level={4} style={{ margin: 0 }} ellipsis data-testid="page-title">
              {data.name}
            </Typography.Title>
            {data.share.enabled ? (
              <Tag color="green" bordered={false} data-testid="agent-shared-tag">
                {t('agents.shareOn')}
              </Tag>
            ) : null}
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('agents.createdBy', { name: data.created_by.nickname })}
            {data.created_by.former_member ? ` · ${t('agents.formerMember')}` : ''}
          </Typography.Text>
        </Flex>
        {menu.length > 0 ? (
          <Dropdown
            trigger={['click']}
            menu={{
              items: menu,
              onClick: async ({ key }) => {
                if (key === 'duplicate') {
                  const copy = await commands.duplicate(data);
                  if (copy) go('agentDetail', { params: { agentId: copy.id } });
                } else if (await commands.remove(data)) go('agents', { replace: true });
              },
            }}
          >
            <Button
              icon={<MoreOutlined />}
              loading={commands.busyId === data.id}
              aria-label={t('agents.more')}
              data-testid="agent-detail-menu"
            />
          </Dropdown>
        ) : null}
      </Flex>
      <Flex gap={16} vertical={!wide} style={{ flex: 1, minHeight: 0 }}>
        <Card
          style={{
            width: wide ? 'min(44%, 560px)' : undefined,
            flex: 'none',
            display: 'flex',
            flexDirection: 'column',
            minHeight: 0,
          }}
          styles={{ body: { padding: 0, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } }}
        >
          <Tabs
            activeKey={tab}
            onChange={setTab}
            tabBarStyle={{ padding: '0 20px', marginBottom: 8 }}
            className="athena-agent-tabs"
            items={[
              { key: 'configure', label: <span data-testid="agent-tab-configure">{t('agents.tabs.configure')}</span> },
              { key: 'publish', label: <span data-testid="agent-tab-publish">{t('agents.tabs.publish')}</span> },
            ]}
          />
          {/* Both stay mounted, so switching tabs keeps unsaved edits. */}
          <div
            style={{ display: tab === 'configure' ? 'flex' : 'none', flexDirection: 'column', flex: 1, minHeight: 0 }}
          >
            <AgentEditor key={data.id} agent={data} spaceId={spaceId} canEdit={may.edit} />
          </div>
          <div style={{ display: tab === 'publish' ? 'block' : 'none', flex: 1, overflowY: 'auto', minHeight: 0 }}>
            <PublishTab agent={data} spaceId={spaceId} canEdit={may.edit} />
          </div>
        </Card>
        <Card
          style={{
            flex: 1,
            minWidth: 0,
            minHeight: wide ? 0 : 640,
            height: wide ? undefined : 640,
            display: 'flex',
            flexDirection: 'column',
          }}
          styles={{ body: { padding: 0, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } }}
        >
          <Playground agent={data} spaceId={spaceId} />
        </Card>
      </Flex>
    </Flex>
  );
}
