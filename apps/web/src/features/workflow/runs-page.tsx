import { BranchesOutlined } from '@ant-design/icons';
import { RUN_RESULTS, type RunResult, type WorkflowRun } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Segmented, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { BackTitle } from '../knowledge/back-title.tsx';
import { LoadFailed } from '../knowledge/load-state.tsx';
import { RunDetailDrawer } from './run-detail-drawer.tsx';
import { formatDuration, TRIGGER_KEYS } from './run-result.ts';
import { EffectiveTag, LockTag, RunResultTag } from './state-tags.tsx';
import { RUNS_PAGE_SIZE, useRunList, useWorkflowOverview } from './workflow-queries.ts';

const isResult = (value: string | null): value is RunResult =>
  (RUN_RESULTS as readonly (string | null)[]).includes(value);

/** /ai-workflows/:workflowId/runs — a workflow's runs, newest first; `?run=` opens one in the drawer. */
export function WorkflowRunsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const spaceId = useSpaceId();
  const userId = useUserStore((s) => s.userinfo?.id);
  const { workflowId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const result = isResult(search.get('result')) ? (search.get('result') as RunResult) : null;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const openRun = search.get('run');
  const workflow = useWorkflowOverview(spaceId, workflowId);
  const runs = useRunList(spaceId, workflowId, result, page);
  const setQuery = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setSearch(next, { replace: true });
  };
  const back = () => go('aiWorkflows');

  if (workflow.isError) {
    return (
      <LoadFailed
        error={workflow.error}
        title={t('workflows.runs.loadFailed')}
        missingText={t('workflows.runs.notFound')}
        backLabel={t('workflows.backToList')}
        onBack={back}
        onRetry={() => void workflow.refetch()}
        testId="workflow-runs"
      />
    );
  }

  const who = (run: WorkflowRun) =>
    run.created_by === null ? null : run.created_by === userId ? t('workflows.runs.you') : t('workflows.runs.member');
  const columns = [
    {
      key: 'result',
      title: t('workflows.runs.result'),
      render: (_: unknown, run: WorkflowRun) =>
        run.status === 'finished' ? (
          <RunResultTag result={run.result} />
        ) : (
          <Tag color="processing">{t(`workflows.runs.${run.status}`)}</Tag>
        ),
    },
    {
      key: 'trigger',
      title: t('workflows.runs.trigger'),
      render: (_: unknown, run: WorkflowRun) => (
        <Flex vertical>
          <span>{t(TRIGGER_KEYS[run.trigger])}</span>
          {who(run) ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {who(run)}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'started',
      title: t('workflows.runs.started'),
      render: (_: unknown, run: WorkflowRun) => <RelativeTime iso={run.created_at} />,
    },
    {
      key: 'duration',
      title: t('workflows.runs.duration'),
      render: (_: unknown, run: WorkflowRun) => (run.status === 'finished' ? formatDuration(run.elapsed_ms) : '–'),
    },
    { key: 'tokens', title: t('workflows.runs.tokens'), dataIndex: 'tokens' },
    { key: 'steps', title: t('workflows.runs.steps'), dataIndex: 'steps' },
    {
      key: 'open',
      title: '',
      render: (_: unknown, run: WorkflowRun) => (
        <Button type="link" size="small" onClick={() => setQuery({ run: run.id })} data-testid="workflow-run-open">
          {t('workflows.runs.details')}
        </Button>
      ),
    },
  ];

  const summary = workflow.data;
  return (
    <Flex vertical gap={16} data-testid="page-workflowRuns">
      <BackTitle
        title={summary ? `${t('routes.workflowRuns')} · ${summary.name}` : t('routes.workflowRuns')}
        tags={
          summary ? (
            <>
              <LockTag workflow={summary} />
              <EffectiveTag workflow={summary} />
            </>
          ) : null
        }
        subtitle={t('workflows.runs.intro')}
        backLabel={t('workflows.backToList')}
        onBack={back}
        extra={
          <Button icon={<BranchesOutlined />} onClick={() => go('workflowEditor', { params: { workflowId } })}>
            {t('workflows.runs.openEditor')}
          </Button>
        }
      />
      <Card>
        <Flex vertical gap={12}>
          <Segmented<RunResult | ''>
            value={result ?? ''}
            onChange={(value) => setQuery({ result: value || null, page: null })}
            data-testid="workflow-runs-filter"
            options={[
              { value: '', label: t('workflows.runs.allResults') },
              ...RUN_RESULTS.map((value) => ({ value, label: t(`workflows.result.${value}`) })),
            ]}
            style={{ width: 'fit-content', maxWidth: '100%', overflowX: 'auto' }}
          />
          {runs.isError ? (
            <Alert
              type="error"
              showIcon
              title={t('workflows.runs.loadFailed')}
              description={errorText(runs.error, currentLocale())}
              action={
                <Button size="small" onClick={() => void runs.refetch()}>
                  {t('common.retry')}
                </Button>
              }
            />
          ) : (
            <Table<WorkflowRun>
              rowKey="id"
              size="middle"
              loading={runs.isPending}
              dataSource={runs.data?.items ?? []}
              columns={columns}
              onRow={(run) => ({ onClick: () => setQuery({ run: run.id }), style: { cursor: 'pointer' } })}
              locale={{
                emptyText: <Empty description={result ? t('workflows.runs.noMatch') : t('workflows.runs.empty')} />,
              }}
              pagination={{
                current: page,
                pageSize: RUNS_PAGE_SIZE,
                total: runs.data?.total ?? 0,
                showSizeChanger: false,
                hideOnSinglePage: true,
                onChange: (next) => setQuery({ page: next > 1 ? String(next) : null }),
              }}
              data-testid="workflow-runs-table"
            />
          )}
        </Flex>
      </Card>
      {spaceId ? <RunDetailDrawer spaceId={spaceId} runId={openRun} onClose={() => setQuery({ run: null })} /> : null}
    </Flex>
  );
}
