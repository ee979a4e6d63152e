import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  DollarOutlined,
  SearchOutlined,
  SendOutlined,
} from '@ant-design/icons';
import type { CustomBusinessStatus, RequestDetail } from '@athena/contract';
import { Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { userTime } from '../../lib/user-time.ts';

export const STATUS_COLORS: Record<CustomBusinessStatus, string> = {
  submitted: 'blue',
  in_review: 'gold',
  quoted: 'purple',
  accepted: 'green',
  closed: 'default',
};

const STATUS_ICONS: Record<CustomBusinessStatus, ReactNode> = {
  submitted: <SendOutlined />,
  in_review: <SearchOutlined />,
  quoted: <DollarOutlined />,
  accepted: <CheckCircleOutlined />,
  closed: <CloseCircleOutlined />,
};

export function StatusTag({ status, testId = 'cab-status' }: { status: CustomBusinessStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} icon={STATUS_ICONS[status]} data-testid={testId} data-status={status}>
      {t(`customBusiness.status.${status}`)}
    </Tag>
  );
}

/** The request's story, oldest first: who moved it where, when, with their note and quote. */
export function StatusTimeline({
  history,
  status,
}: {
  history: RequestDetail['history'];
  status: CustomBusinessStatus;
}) {
  const { t } = useTranslation();
  const waiting = status === 'submitted' || status === 'in_review';
  const items = history.map((change) => {
    const name = change.actor?.nickname ?? '';
    const who = change.by_operator
      ? name
        ? t('customBusiness.history.teamMember', { name })
        : t('customBusiness.history.team')
      : name;
    return {
      key: change.id,
      color: STATUS_COLORS[change.to_status] === 'default' ? 'gray' : STATUS_COLORS[change.to_status],
      icon: STATUS_ICONS[change.to_status],
      content: (
        <div data-testid="cab-timeline-item" data-to={change.to_status}>
          <Typography.Text strong>{t(`customBusiness.history.to.${change.to_status}`)}</Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('customBusiness.history.byAt', { who, at: userTime(change.created_at).format('YYYY-MM-DD HH:mm') })}
            </Typography.Text>
          </div>
          {change.quote_fen !== null ? (
            <div>{t('customBusiness.history.quote', { amount: formatFen(change.quote_fen, currentLocale()) })}</div>
          ) : null}
          {change.note ? (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '4px 0 0' }} type="secondary">
              {change.note}
            </Typography.Paragraph>
          ) : null}
        </div>
      ),
    };
  });
  if (waiting) {
    items.push({
      key: -1,
      color: 'gray',
      icon: <ClockCircleOutlined />,
      content: (
        <Typography.Text type="secondary" data-testid="cab-timeline-next">
          {t(status === 'submitted' ? 'customBusiness.history.nextReview' : 'customBusiness.history.nextQuote')}
        </Typography.Text>
      ),
    });
  }
  return <Timeline data-testid="cab-timeline" items={items} />;
}
