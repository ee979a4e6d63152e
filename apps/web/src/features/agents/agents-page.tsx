import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { can } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Input, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { useAgentCommands } from './agent-actions.ts';
import { AgentCard } from './agent-card.tsx';
import { useAgentList } from './agent-queries.ts';
import { AgentsEmpty } from './agents-empty.tsx';
import { CreateAgentModal } from './create-agent-modal.tsx';

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 16 } as const;

/** /agents: the space's agents as cards, with search, create, duplicate and delete. */
export function AgentsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const team = useUserStore((s) => s.team);
  const spaceId = team?.id ?? null;
  const [search, setSearch] = useState('');
  const keyword = useDebouncedValue(search.trim());
  const list = useAgentList(spaceId, keyword);
  const commands = useAgentCommands(spaceId);
  const [creating, setCreating] = useState(false);
  const mayCreate = team ? can(team.role, 'agent.create') : false;
  const open = (agentId: string) => go('agentDetail', { params: { agentId } });

  const items = list.data?.items ?? [];
  const nothingYet = list.isSuccess && items.length === 0 && !keyword;

  let body: React.ReactNode;
  if (!spaceId) {
    body = (
      <Card>
        <Empty data-testid="agents-no-space" description={t('agents.noSpace')} />
      </Card>
    );
  } else if (list.isPending) {
    body = (
      <div style={GRID} data-testid="agents-loading">
        {[0, 1, 2].map((i) => (
          <Card key={i}>
            <Skeleton active avatar paragraph={{ rows: 2 }} />
          </Card>
        ))}
      </div>
    );
  } else if (list.isError && items.length === 0) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="agents-error"
        title={t('agents.loadFailed')}
        description={errorText(list.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (nothingYet) {
    body = (
      <Card>
        <AgentsEmpty onCreate={mayCreate ? () => setCreating(true) : null} />
      </Card>
    );
  } else if (items.length === 0) {
    body = (
      <Card>
        <Empty data-testid="agents-no-match" description={t('agents.noMatch', { keyword })} />
      </Card>
    );
  } else {
    body = (
      <div style={GRID} data-testid="agents-grid">
        {items.map((agent) => (
          <AgentCard
            key={agent.id}
            agent={agent}
            busy={commands.busyId === agent.id}
            onOpen={() => open(agent.id)}
            onDuplicate={() => void commands.duplicate(agent)}
            onDelete={() => void commands.remove(agent)}
          />
        ))}
      </div>
    );
  }

  return (
    <Flex vertical gap={16} data-testid="page-agents">
      <PageHeader
        title={t('routes.agents')}
        subtitle={t('agents.intro')}
        extra={
          nothingYet ? null : (
            <Flex gap={8} wrap>
              <Input
                allowClear
                prefix={<SearchOutlined />}
                placeholder={t('agents.search')}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                style={{ width: 240 }}
                maxLength={50}
                data-testid="agents-search"
              />
              {mayCreate ? (
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setCreating(true)}
                  data-testid="agents-create"
                >
                  {t('agents.create.button')}
                </Button>
              ) : null}
            </Flex>
          )
        }
      />
      {body}
      {spaceId ? (
        <CreateAgentModal
          open={creating}
          spaceId={spaceId}
          onClose={() => setCreating(false)}
          onCreated={(agent) => {
            setCreating(false);
            open(agent.id);
          }}
        />
      ) : null}
    </Flex>
  );
}
