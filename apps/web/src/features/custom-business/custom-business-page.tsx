import { AuditOutlined, PlusOutlined, RocketOutlined, SolutionOutlined } from '@ant-design/icons';
import type { CustomBusinessStatus } from '@athena/contract';
import { Button, Card, Empty, Flex, Skeleton, Steps, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { OperatorPanel } from './operator-panel.tsx';
import { useRequests } from './queries.ts';
import { RequestDrawer } from './request-drawer.tsx';
import { RequestForm } from './request-form.tsx';
import { EmptyRequests, RequestsTable, StatusFilter, Toolbar, useSummaryColumns } from './requests-table.tsx';

const EXAMPLES = ['customer_service', 'marketing', 'knowledge_qa', 'data_analysis', 'workflow_automation'] as const;

/** What the service is and how it goes, in four steps, with the way in. */
function Intro({ onNew }: { onNew: () => void }) {
  const { t } = useTranslation();
  const steps = (['submit', 'review', 'quote', 'build'] as const).map((step) => ({
    title: t(`customBusiness.intro.steps.${step}`),
    content: t(`customBusiness.intro.steps.${step}Text`),
  }));
  return (
    <Card data-testid="cab-intro">
      <Flex vertical gap={16}>
        <Flex justify="space-between" align="flex-start" gap={24} wrap>
          <div style={{ flex: '1 1 420px' }}>
            <Typography.Title level={4} style={{ marginTop: 0 }}>
              <RocketOutlined style={{ color: '#6366f1', marginInlineEnd: 8 }} />
              {t('customBusiness.intro.heading')}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('customBusiness.intro.text')}
            </Typography.Paragraph>
            <Flex wrap gap={6}>
              {EXAMPLES.map((scenario) => (
                <Tag key={scenario} bordered={false} color="geekblue">
                  {t(`customBusiness.scenario.${scenario}`)}
                </Tag>
              ))}
            </Flex>
          </div>
          <Button type="primary" size="large" icon={<PlusOutlined />} onClick={onNew} data-testid="cab-new-request">
            {t('customBusiness.newRequest')}
          </Button>
        </Flex>
        <Steps size="small" current={-1} items={steps} />
      </Flex>
    </Card>
  );
}

/**
 * /custom-ai-business: explain the service, take requests, list the team's requests with their
 * status, and (for operators only) every space's requests to move along.
 */
export function CustomBusinessPage() {
  const { t } = useTranslation();
  const spaceId = useSpaceId();
  const [params, setParams] = useSearchParams();
  const [formOpen, setFormOpen] = useState(false);
  const [status, setStatus] = useState<CustomBusinessStatus | undefined>();
  const [page, setPage] = useState(1);
  const query = useRequests(spaceId, status, page);
  const columns = useSummaryColumns();
  const isOperator = query.data?.is_operator === true;
  const tab = params.get('tab') === 'operator' && isOperator ? 'operator' : 'mine';
  const openId = params.get('request');
  const operatorView = params.get('view') === 'operator';

  const update = (change: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(change)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  const open = (id: string, operator: boolean) => update({ request: id, view: operator ? 'operator' : null });

  const heading = <PageHeader title={t('routes.customAiBusiness')} subtitle={t('pageIntro.customAiBusiness')} />;
  if (!spaceId) {
    return (
      <div data-testid="page-customAiBusiness">
        {heading}
        <Card>
          <Empty data-testid="cab-no-space" description={t('dashboard.noSpace')} />
        </Card>
      </div>
    );
  }

  const mine = (
    <div data-testid="cab-mine">
      <Toolbar>
        <Typography.Text type="secondary">{t('customBusiness.list.intro')}</Typography.Text>
        <StatusFilter
          value={status}
          onChange={(next) => {
            setStatus(next);
            setPage(1);
          }}
          testId="cab-status-filter"
        />
      </Toolbar>
      {query.isPending ? (
        <Skeleton active data-testid="cab-loading" />
      ) : (
        <RequestsTable
          query={query}
          columns={columns}
          page={page}
          onPage={setPage}
          onOpen={(id) => open(id, false)}
          testId="cab-list"
          empty={
            status ? (
              <Empty description={t('customBusiness.list.emptyFiltered')} />
            ) : (
              <EmptyRequests onNew={() => setFormOpen(true)} />
            )
          }
        />
      )}
    </div>
  );

  return (
    <Flex vertical gap={16} data-testid="page-customAiBusiness">
      {heading}
      <Intro onNew={() => setFormOpen(true)} />
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          activeKey={tab}
          onChange={(key) => update({ tab: key === 'operator' ? 'operator' : null })}
          destroyOnHidden
          items={[
            {
              key: 'mine',
              icon: <SolutionOutlined />,
              label: <span data-testid="cab-tab-mine">{t('customBusiness.tabs.mine')}</span>,
              children: mine,
            },
            ...(isOperator
              ? [
                  {
                    key: 'operator',
                    icon: <AuditOutlined />,
                    label: <span data-testid="cab-tab-operator">{t('customBusiness.tabs.operator')}</span>,
                    children: <OperatorPanel onOpen={(id) => open(id, true)} />,
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <RequestForm
        open={formOpen}
        onClose={() => setFormOpen(false)}
        onCreated={(created) => open(created.id, false)}
      />
      <RequestDrawer id={openId} operator={operatorView} onClose={() => update({ request: null, view: null })} />
    </Flex>
  );
}
