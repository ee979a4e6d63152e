import {
  behaviourRoutes,
  type RouteBody,
  type RouteData,
  type SATISFACTION_GROUPS,
  type SatisfactionSurvey,
} from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Flex, Rate, Row, Skeleton, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { TimeRangeBody } from '../../lib/time-range.ts';
import type enFeatures from '../../locales/en.features.json';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';

type Window = Pick<RouteBody<typeof behaviourRoutes.satisfactionList>, 'time' | 'start_time' | 'end_time'>;
type Group = RouteData<typeof behaviourRoutes.satisfactionSummary>['groups'][number];
type By = Exclude<(typeof SATISFACTION_GROUPS)[number], 'conversation'>;

/** This section's words (userProfile.satisfactionReport.*). */
type Words = keyof (typeof enFeatures)['userProfile']['satisfactionReport'];

/** Ratings the latest list shows: enough to see who rated what lately; the customer's tab has all of theirs. */
const LATEST = 10;

/** The report's time range in the satisfaction routes' terms (chat history's filters). */
export function satisfactionWindow(time: TimeRangeBody): Window {
  return time.preset === 'custom'
    ? { time: 'custom', start_time: time.from, end_time: time.to }
    : { time: time.preset };
}

function useSummary(spaceId: string | null, sceneId: number | null, window: Window, groupBy: By) {
  return useQuery({
    queryKey: [...queryKeys.profile.scene(spaceId, sceneId ?? 0), 'satisfaction-report', window, groupBy] as const,
    queryFn: () => api(behaviourRoutes.satisfactionSummary, { ...window, group_by: groupBy }),
    enabled: Boolean(spaceId) && sceneId !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function useSatisfactionReport(spaceId: string | null, sceneId: number | null, window: Window) {
  return {
    agent: useSummary(spaceId, sceneId, window, 'agent'),
    servicer: useSummary(spaceId, sceneId, window, 'servicer'),
    latest: useQuery({
      queryKey: [...queryKeys.profile.scene(spaceId, sceneId ?? 0), 'satisfaction-report', window, 'latest'] as const,
      queryFn: () => api(behaviourRoutes.satisfactionList, { ...window, page_size: LATEST }),
      enabled: Boolean(spaceId) && sceneId !== null,
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  };
}

/** Red to green, score 1 to 5: the same reading as the stars. */
const SCORE_COLORS = ['#f5222d', '#fa8c16', '#fadb14', '#a0d911', '#52c41a'];

/** Rated surveys by score as one bar, best on the right; a tooltip gives the counts. */
function DistributionBar({ distribution }: { distribution: number[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const rated = distribution.reduce((sum, n) => sum + n, 0);
  const tip = distribution
    .map((count, i) => t('userProfile.satisfactionReport.scoreCount', { score: i + 1, count }))
    .reverse()
    .join(' · ');
  return (
    <Tooltip title={tip}>
      <Flex
        style={{ width: 140, height: 10, borderRadius: 5, overflow: 'hidden', background: token.colorFillSecondary }}
        data-testid="satisfaction-distribution"
      >
        {rated > 0
          ? distribution.map((count, i) =>
              count > 0 ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the index is the score, fixed
                <div key={i} style={{ width: `${(count / rated) * 100}%`, background: SCORE_COLORS[i] }} />
              ) : null,
            )
          : null}
      </Flex>
    </Tooltip>
  );
}

/** Satisfied (4 or 5) of the rated, in percent with no decimals; — when nothing is rated. */
const satisfiedShare = (group: Group) =>
  group.rated > 0 ? `${Math.round(((group.distribution[3] + group.distribution[4]) / group.rated) * 100)}%` : '—';

function GroupTable({ by, query }: { by: By; query: ReturnType<typeof useSatisfactionReport>['agent'] }) {
  const { t } = useTranslation();
  const k = (key: Words): string => t(`userProfile.satisfactionReport.${key}`);
  const nameless = by === 'agent' ? k('noAgent') : k('noServicer');
  const columns: ColumnsType<Group> = [
    {
      key: 'name',
      title: by === 'agent' ? k('agent') : k('servicer'),
      render: (_, group) =>
        group.key ? (
          <Typography.Text ellipsis style={{ maxWidth: 160 }}>
            {group.label || group.key}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{nameless}</Typography.Text>
        ),
    },
    {
      key: 'rated',
      title: k('ratings'),
      align: 'right',
      render: (_, group) => (
        <Tooltip title={`${k('asked')} ${group.asked}`}>
          <span>{group.rated}</span>
        </Tooltip>
      ),
    },
    {
      key: 'average',
      title: k('average'),
      align: 'right',
      render: (_, group) => (group.average === null ? '—' : group.average.toFixed(2)),
    },
    {
      key: 'distribution',
      title: k('distribution'),
      render: (_, group) => <DistributionBar distribution={group.distribution} />,
    },
    { key: 'satisfied', title: k('satisfied'), align: 'right', render: (_, group) => satisfiedShare(group) },
  ];
  return (
    <Flex vertical gap={6}>
      <Typography.Text strong>{by === 'agent' ? k('byAgent') : k('byServicer')}</Typography.Text>
      <Table<Group>
        size="small"
        rowKey={(group) => group.key || '-'}
        columns={columns}
        dataSource={query.data?.groups ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noRatings')} /> }}
        onRow={(group) => ({ 'data-testid': `satisfaction-${by}-row`, 'data-key': group.key }) as object}
      />
    </Flex>
  );
}

interface Props {
  spaceId: string | null;
  sceneId: number | null;
  time: TimeRangeBody;
  /** Opens a customer's profile drawer (the page's own). */
  onOpenCustomer?: (customerId: string) => void;
}

/**
 * The Reports tab's satisfaction section (docs/user-profiles.md, Reports): the window's ratings per
 * agent and per servicer, and the latest surveys with their customer. Its own queries, so the
 * charts above do not wait for it and its failure does not hide them.
 */
export function ReportSatisfaction({ spaceId, sceneId, time, onOpenCustomer }: Props) {
  const { t } = useTranslation();
  const k = (key: Words): string => t(`userProfile.satisfactionReport.${key}`);
  const report = useSatisfactionReport(spaceId, sceneId, satisfactionWindow(time));
  const failed = [report.agent, report.servicer, report.latest].find((query) => query.isError);

  const body = () => {
    if (failed) {
      return (
        <ListLoadError
          title={k('loadFailed')}
          error={failed.error}
          onRetry={() => {
            void report.agent.refetch();
            void report.servicer.refetch();
            void report.latest.refetch();
          }}
          testId="satisfaction-report-error"
        />
      );
    }
    if (!report.agent.data || !report.latest.data) return <Skeleton active paragraph={{ rows: 4 }} />;
    if (report.agent.data.asked === 0) {
      return (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={k('noRatings')}
          data-testid="satisfaction-report-empty"
        />
      );
    }
    return (
      <Flex vertical gap={16} style={{ opacity: report.agent.isPlaceholderData ? 0.6 : 1 }}>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <GroupTable by="agent" query={report.agent} />
          </Col>
          <Col xs={24} xl={12}>
            <GroupTable by="servicer" query={report.servicer} />
          </Col>
        </Row>
        <Flex vertical gap={6}>
          <Typography.Text strong>{k('latest')}</Typography.Text>
          <LatestTable items={report.latest.data.items} onOpenCustomer={onOpenCustomer} />
        </Flex>
      </Flex>
    );
  };

  return (
    <Card size="small" title={k('title')} data-testid="satisfaction-report">
      {body()}
    </Card>
  );
}

function LatestTable({
  items,
  onOpenCustomer,
}: {
  items: SatisfactionSurvey[];
  onOpenCustomer?: (customerId: string) => void;
}) {
  const { t } = useTranslation();
  const k = (key: Words): string => t(`userProfile.satisfactionReport.${key}`);
  const columns: ColumnsType<SatisfactionSurvey> = [
    {
      key: 'customer',
      title: k('customer'),
      render: (_, survey) => {
        const name = survey.customer_name || k('unnamed');
        return survey.customer_id && onOpenCustomer ? (
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            title={k('open')}
            onClick={() => onOpenCustomer(survey.customer_id ?? '')}
            data-testid="satisfaction-latest-customer"
          >
            {name}
          </Button>
        ) : (
          name
        );
      },
    },
    {
      key: 'conversation',
      title: k('conversation'),
      // A private WeCom chat has no title; its internal id would mean nothing to a reader.
      render: (_, survey) =>
        survey.conversation_title || <Typography.Text type="secondary">{k('private')}</Typography.Text>,
    },
    { key: 'servicer', title: k('servicer'), render: (_, survey) => survey.servicer ?? '—' },
    {
      key: 'score',
      title: k('score'),
      render: (_, survey) => {
        if (survey.state === 'rated' && survey.score !== null) {
          return (
            <Tooltip title={survey.label}>
              <Rate disabled value={survey.score} style={{ fontSize: 12 }} />
            </Tooltip>
          );
        }
        if (survey.state === 'failed') {
          return (
            <Tooltip title={survey.fail_reason}>
              <Tag color="error" bordered={false}>
                {k('notDelivered')}
              </Tag>
            </Tooltip>
          );
        }
        return <Tag bordered={false}>{t('userProfile.satisfaction.waiting')}</Tag>;
      },
    },
    {
      key: 'time',
      title: k('time'),
      render: (_, survey) => <RelativeTime iso={survey.rated_at ?? survey.requested_at} />,
    },
  ];
  return (
    <Table<SatisfactionSurvey>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={items}
      pagination={false}
      scroll={{ x: 'max-content' }}
      onRow={(survey) => ({ 'data-testid': 'satisfaction-latest-row', 'data-state': survey.state }) as object}
    />
  );
}
