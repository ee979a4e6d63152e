import { agentRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { StatCard } from '../../shared/ui/stat-card.tsx';
import { AppsEmpty } from './apps-empty.tsx';
import { AppsTable } from './apps-table.tsx';

/** /apps: the space's published agents (a share link or an API key) and their use. */
export function AppsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const spaceId = useSpaceId();
  const apps = useQuery({
    queryKey: queryKeys.agents.apps(spaceId),
    queryFn: () => api(agentRoutes.apps),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
  const items = apps.data?.items ?? [];
  const total = (pick: (row: (typeof items)[number]) => number) => items.reduce((sum, row) => sum + pick(row), 0);

  let body: React.ReactNode;
  if (!spaceId) {
    body = (
      <Card>
        <Empty description={t('agents.noSpace')} data-testid="apps-no-space" />
      </Card>
    );
  } else if (apps.isPending) {
    body = (
      <Card data-testid="apps-loading">
        <Skeleton active paragraph={{ rows: 5 }} />
      </Card>
    );
  } else if (apps.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="apps-error"
        title={t('apps.loadFailed')}
        description={errorText(apps.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void apps.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (items.length === 0) {
    body = (
      <Card>
        <AppsEmpty />
      </Card>
    );
  } else {
    const stats = [
      { key: 'apps', title: t('apps.stats.published'), value: items.length },
      { key: 'conversations', title: t('apps.stats.conversations'), value: total((row) => row.conversations) },
      { key: 'messages', title: t('apps.stats.messages'), value: total((row) => row.messages) },
      { key: 'tokens', title: t('apps.stats.tokens'), value: total((row) => row.tokens) },
    ];
    body = (
      <>
        <Row gutter={[16, 16]}>
          {stats.map((stat) => (
            <Col key={stat.key} xs={12} lg={6}>
              <StatCard title={stat.title} value={stat.value} data-testid={`apps-stat-${stat.key}`} />
            </Col>
          ))}
        </Row>
        <Card styles={{ body: { padding: 0 } }}>
          <AppsTable
            items={items}
            loading={apps.isFetching}
            onOpen={(agentId) => go('agentDetail', { params: { agentId } })}
          />
        </Card>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('apps.usageNote')}
        </Typography.Text>
      </>
    );
  }

  return (
    <Flex vertical gap={16} data-testid="page-apps">
      <PageHeader title={t('routes.apps')} subtitle={t('apps.intro')} />
      {body}
    </Flex>
  );
}
