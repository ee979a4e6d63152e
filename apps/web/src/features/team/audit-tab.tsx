import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type SpaceSummary } from '@athena/contract';
import { Alert, Button, DatePicker, Empty, Flex, Select, Table, type TableProps, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { testId } from '../../lib/test-id.ts';
import { activeTimezone } from '../../lib/timezone.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { UserCell } from '../../shared/ui/user-cell.tsx';
import { dayRange } from './audit-range.ts';
import { auditSentence } from './audit-sentence.ts';
import { PAGE_SIZE, useAudit } from './team-queries.ts';

const ACTION_COLORS: Partial<Record<AuditAction, string>> = {
  'team.dissolve': 'error',
  'member.remove': 'error',
  'invite.revoke': 'warning',
  'member.role_change': 'processing',
  'team.transfer': 'gold',
  'member.join': 'success',
  'billing.recharge': 'success',
  'billing.refund': 'warning',
  'billing.adjust': 'gold',
};

type Range = [Dayjs, Dayjs] | null;

/** The team's audit log (creator and admins): filter by action and days, read each entry as a sentence. */
export function AuditTab({ team }: { team: SpaceSummary }) {
  const { t } = useTranslation();
  const [action, setAction] = useState<AuditAction | undefined>();
  const [range, setRange] = useState<Range>(null);
  const [page, setPage] = useState(1);
  const filters = useMemo(
    () => ({ action, page, ...(range ? dayRange(range[0], range[1], activeTimezone()) : {}) }),
    [action, range, page],
  );
  const audit = useAudit(team.id, filters, true);
  const filtered = Boolean(action || range);

  const columns: TableProps<AuditEntry>['columns'] = [
    {
      key: 'time',
      title: t('team.audit.columns.time'),
      width: 140,
      render: (_, entry) => <RelativeTime iso={entry.created_at} />,
    },
    {
      key: 'actor',
      title: t('team.audit.columns.actor'),
      render: (_, entry) => <UserCell nickname={entry.actor.nickname} avatarUrl={entry.actor.avatar_url} size={24} />,
    },
    {
      key: 'action',
      title: t('team.audit.columns.action'),
      render: (_, entry) => (
        <Tag color={ACTION_COLORS[entry.action]} data-testid="audit-action" data-action={entry.action}>
          {AUDIT_ACTIONS.includes(entry.action) ? t(`team.audit.actions.${entry.action}`) : entry.action}
        </Tag>
      ),
    },
    {
      key: 'details',
      title: t('team.audit.columns.details'),
      render: (_, entry) => (
        <span data-testid="audit-sentence">{auditSentence(entry, (key, values) => t(key, values))}</span>
      ),
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="audit-tab">
      <Flex wrap gap={12}>
        <Select<AuditAction>
          allowClear
          placeholder={t('team.audit.filterAction')}
          value={action}
          onChange={(value) => {
            setAction(value);
            setPage(1);
          }}
          style={{ width: 220 }}
          options={AUDIT_ACTIONS.map((value) => ({ value, label: t(`team.audit.actions.${value}`) }))}
          data-testid="audit-action-filter"
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(value) => {
            setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
            setPage(1);
          }}
          disabledDate={(day) => day.isAfter(dayjs(), 'day')}
          presets={[
            { label: t('team.audit.last7'), value: [dayjs().subtract(6, 'day'), dayjs()] },
            { label: t('team.audit.last30'), value: [dayjs().subtract(29, 'day'), dayjs()] },
          ]}
          data-testid="audit-range"
        />
      </Flex>
      {audit.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="audit-error"
          title={t('team.audit.loadFailed')}
          description={errorText(audit.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void audit.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      <Table<AuditEntry>
        data-testid="audit-table"
        rowKey="id"
        columns={columns}
        dataSource={audit.data?.items ?? []}
        loading={audit.isFetching}
        scroll={{ x: 'max-content' }}
        onRow={(entry) => testId(`audit-row-${entry.id}`)}
        locale={{
          emptyText: audit.isPending ? (
            ' '
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('team.audit.emptyFiltered') : t('team.audit.empty')}
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: audit.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t(total === 1 ? 'team.audit.totalOne' : 'team.audit.total', { count: total }),
          onChange: setPage,
        }}
      />
    </Flex>
  );
}
