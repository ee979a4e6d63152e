import { formatMillifen, type UsageRecord } from '@athena/contract';
import { Flex, type TableProps, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLocale } from '../../lib/i18n.ts';
import { buildHref } from '../../lib/navigation.ts';
import { testId } from '../../lib/test-id.ts';
import { userTime } from '../../lib/user-time.ts';
import { UsageKindTag } from './billing-tags.tsx';
import { type RecordsQuery, RecordsTable } from './records-table.tsx';

const OUTCOME_COLORS: Record<UsageRecord['outcome'], string> = { ok: 'success', error: 'error', cancelled: 'default' };

/**
 * Where a fee record leads: a workflow's call to the run that made it (or the workflow's runs), an
 * agent's to the agent, a knowledge base's to the base; nowhere when the subject was deleted.
 */
function subjectHref(row: UsageRecord): string | null {
  const subject = row.subject;
  if (!subject?.name) return null;
  if (row.kind === 'workflow') {
    return buildHref('workflowRuns', { params: { workflowId: subject.id }, query: { run: subject.run_id } });
  }
  if (row.kind === 'agent') return buildHref('agentDetail', { params: { agentId: subject.id } });
  if (row.kind === 'knowledge') return buildHref('knowledgeDetail', { params: { knowledgeId: subject.id } });
  return null;
}

function SubjectCell({ row }: { row: UsageRecord }) {
  const { t } = useTranslation();
  if (!row.subject) return null;
  if (!row.subject.name) return <Typography.Text type="secondary">{t('billing.usage.subjectDeleted')}</Typography.Text>;
  const href = subjectHref(row);
  const name = (
    <Typography.Text ellipsis={{ tooltip: row.subject.name }} style={href ? { color: 'inherit' } : undefined}>
      {row.subject.name}
    </Typography.Text>
  );
  return href ? (
    <Link to={href} data-testid="usage-subject-link">
      {name}
    </Link>
  ) : (
    name
  );
}

const numberCell = (value: number, locale: string) => (
  <span style={{ fontVariantNumeric: 'tabular-nums' }}>{value.toLocaleString(locale)}</span>
);

/** One row per model call: when, what made it, who, which model (platform or own key), tokens, fee, outcome. */
export function UsageTable(props: {
  query: RecordsQuery<UsageRecord>;
  page: number;
  filtered: boolean;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const columns: TableProps<UsageRecord>['columns'] = [
    {
      key: 'time',
      title: t('billing.usage.columns.time'),
      render: (_, row) => (
        <span style={{ whiteSpace: 'nowrap' }}>{userTime(row.created_at).format('YYYY-MM-DD HH:mm:ss')}</span>
      ),
    },
    {
      key: 'kind',
      title: t('billing.usage.columns.kind'),
      render: (_, row) => (
        <Flex align="center" gap={4} wrap>
          <UsageKindTag kind={row.kind} />
          <SubjectCell row={row} />
        </Flex>
      ),
    },
    {
      key: 'member',
      title: t('billing.usage.columns.member'),
      render: (_, row) => row.user?.nickname ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'model',
      title: t('billing.usage.columns.model'),
      render: (_, row) => (
        <Flex align="center" gap={6} wrap>
          {/* The name the model pickers show; its version beside it when that says more. */}
          <Typography.Text data-testid="usage-model-name">{row.model_name}</Typography.Text>
          {row.model_name !== row.model ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} code>
              {row.model}
            </Typography.Text>
          ) : null}
          {row.platform ? (
            <Tag color="blue" bordered={false}>
              {t('billing.usage.platform')}
            </Tag>
          ) : (
            <Tag color="green" bordered={false}>
              {t('billing.usage.ownKey')}
            </Tag>
          )}
        </Flex>
      ),
    },
    {
      key: 'input',
      title: t('billing.usage.columns.input'),
      align: 'right',
      render: (_, row) => numberCell(row.input_tokens, locale),
    },
    {
      key: 'output',
      title: t('billing.usage.columns.output'),
      align: 'right',
      render: (_, row) => numberCell(row.output_tokens, locale),
    },
    {
      key: 'fee',
      title: t('billing.usage.columns.fee'),
      align: 'right',
      // The fee and the result are what the page is for: they stay in view while the rest scrolls.
      fixed: 'right',
      render: (_, row) => (
        <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="usage-fee">
          {formatMillifen(row.fee_millifen, locale)}
        </span>
      ),
    },
    {
      key: 'outcome',
      title: t('billing.usage.columns.outcome'),
      fixed: 'right',
      render: (_, row) => <Tag color={OUTCOME_COLORS[row.outcome]}>{t(`billing.usage.outcome.${row.outcome}`)}</Tag>,
    },
  ];

  return (
    <RecordsTable<UsageRecord>
      query={props.query}
      page={props.page}
      onPage={props.onPage}
      columns={columns}
      onRow={(row) => testId(`usage-row-${row.id}`)}
      empty={props.filtered ? t('billing.usage.emptyFiltered') : t('billing.usage.empty')}
      testIds={{ table: 'usage-table', error: 'usage-error', empty: 'usage-empty' }}
    />
  );
}
