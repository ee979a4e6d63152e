import type { ReportDay } from '@athena/contract';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface Totals {
  sessions: number;
  newCustomers: number;
  asked: number;
  replied: number;
  responseSeconds: number;
  handedOver: number;
  aiResolved: number;
  sent: number;
  failed: number;
  rated: number;
  scoreSum: number;
}

/** The window's totals; means are weighted by each day's count (a day's mean times its count). */
export function totalsOf(days: ReportDay[]): Totals {
  const totals: Totals = {
    sessions: 0,
    newCustomers: 0,
    asked: 0,
    replied: 0,
    responseSeconds: 0,
    handedOver: 0,
    aiResolved: 0,
    sent: 0,
    failed: 0,
    rated: 0,
    scoreSum: 0,
  };
  for (const day of days) {
    totals.sessions += day.sessions;
    totals.newCustomers += day.new_customers;
    totals.asked += day.asked;
    totals.replied += day.replied;
    totals.responseSeconds += (day.first_response_seconds ?? 0) * day.replied;
    totals.handedOver += day.handed_over;
    totals.aiResolved += day.ai_resolved;
    totals.sent += day.activation_sent;
    totals.failed += day.activation_failed;
    totals.rated += day.surveys_rated;
    totals.scoreSum += (day.satisfaction_score ?? 0) * day.surveys_rated;
  }
  return totals;
}

type KpiText =
  | 'sessions'
  | 'newCustomers'
  | 'firstResponse'
  | 'aiResolution'
  | 'handOver'
  | 'activation'
  | 'satisfaction'
  | 'none'
  | 'seconds'
  | 'minutes'
  | 'score'
  | 'ofSessions'
  | 'ofSends'
  | 'ofRatings';

const share = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : null);

/** The window's headline figures, each with what it is out of. */
export function ReportKpis({ days }: { days: ReportDay[] }) {
  const { t } = useTranslation();
  const k = (key: KpiText, options: Record<string, unknown> = {}) => t(`userProfile.report.kpi.${key}`, options);
  const totals = totalsOf(days);
  const meanResponse = totals.replied > 0 ? totals.responseSeconds / totals.replied : null;
  const response =
    meanResponse === null
      ? null
      : meanResponse < 120
        ? k('seconds', { value: Math.round(meanResponse) })
        : k('minutes', { value: Math.round(meanResponse / 6) / 10 });
  const score = totals.rated > 0 ? k('score', { value: Math.round((totals.scoreSum / totals.rated) * 10) / 10 }) : null;
  const ofSessions = k('ofSessions', { count: totals.asked });
  const items: { key: string; title: string; value: string | number | null; note?: string }[] = [
    { key: 'sessions', title: k('sessions'), value: totals.sessions },
    { key: 'newCustomers', title: k('newCustomers'), value: totals.newCustomers },
    { key: 'firstResponse', title: k('firstResponse'), value: response },
    { key: 'aiResolution', title: k('aiResolution'), value: share(totals.aiResolved, totals.asked), note: ofSessions },
    { key: 'handOver', title: k('handOver'), value: share(totals.handedOver, totals.asked), note: ofSessions },
    {
      key: 'activation',
      title: k('activation'),
      value: share(totals.sent, totals.sent + totals.failed),
      note: k('ofSends', { count: totals.sent + totals.failed }),
    },
    { key: 'satisfaction', title: k('satisfaction'), value: score, note: k('ofRatings', { count: totals.rated }) },
  ];
  return (
    <Row gutter={[12, 12]}>
      {items.map((item) => (
        <Col key={item.key} flex="1 1 130px">
          <Card size="small" style={{ height: '100%' }} data-testid={`report-kpi-${item.key}`}>
            <Statistic title={item.title} value={item.value ?? k('none')} />
            {item.note ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {item.note}
              </Typography.Text>
            ) : null}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
