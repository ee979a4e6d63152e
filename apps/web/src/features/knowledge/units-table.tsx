import { DeleteOutlined, RedoOutlined, SettingOutlined, StopOutlined } from '@ant-design/icons';
import type { KnowledgeUnit } from '@athena/contract';
import { Button, Flex, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buildHref } from '../../lib/navigation.ts';
import { formatBytes } from './file-checks.ts';
import { unitActions } from './unit-status.ts';
import { UnitStatusCell } from './unit-status-badge.tsx';

interface Props {
  units: KnowledgeUnit[];
  loading: boolean;
  /** Null for people who may only look. */
  manage: null | {
    busyId: string | null;
    onStart: (unit: KnowledgeUnit) => void;
    onCancel: (unit: KnowledgeUnit) => void;
    onRetry: (unit: KnowledgeUnit) => void;
    onDelete: (unit: KnowledgeUnit) => void;
  };
  emptyText: ReactNode;
}

/** Data attributes for a row (antd's onRow props type does not list them). */
const rowAttrs = (unit: KnowledgeUnit): object => ({
  'data-testid': 'unit-row',
  'data-unit-id': unit.id,
  'data-file-name': unit.file_name,
  'data-status': unit.status,
});

const numberCell = (value: number) => (
  <Typography.Text style={{ fontVariantNumeric: 'tabular-nums' }}>{value.toLocaleString()}</Typography.Text>
);

/** A base's files with where each one's indexing stands and what can be done about it. */
export function UnitsTable({ units, loading, manage, emptyText }: Props) {
  const { t } = useTranslation();

  const columns: TableProps<KnowledgeUnit>['columns'] = [
    {
      key: 'file',
      title: t('knowledge.units.columns.file'),
      render: (_, unit) => (
        <Flex vertical gap={2} style={{ minWidth: 180, maxWidth: 340 }}>
          <Link
            to={buildHref('knowledgeUnit', { params: { knowledgeId: unit.knowledge_id, unitId: unit.id } })}
            data-testid="unit-name"
          >
            <Typography.Text ellipsis={{ tooltip: unit.file_name }} style={{ color: 'inherit', maxWidth: 320 }}>
              {unit.file_name}
            </Typography.Text>
          </Link>
          <Flex gap={6} align="center">
            <Tag bordered={false} style={{ marginInlineEnd: 0, fontSize: 11 }} data-testid="unit-kind">
              {unit.file_kind.toUpperCase()}
            </Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="unit-size">
              {formatBytes(unit.size)}
            </Typography.Text>
          </Flex>
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('knowledge.units.columns.status'),
      render: (_, unit) => (
        <Flex vertical gap={6} align="flex-start">
          <UnitStatusCell unit={unit} />
          {manage && unit.status === 'failed' ? (
            <Button
              size="small"
              icon={<RedoOutlined />}
              loading={manage.busyId === unit.id}
              onClick={() => manage.onRetry(unit)}
              data-testid="unit-retry-inline"
            >
              {t('knowledge.units.retry')}
            </Button>
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'segments',
      title: t('knowledge.units.columns.segments'),
      align: 'right',
      render: (_, unit) => numberCell(unit.segment_count),
    },
    {
      key: 'tokens',
      title: t('knowledge.units.columns.tokens'),
      align: 'right',
      render: (_, unit) => numberCell(unit.token_count),
    },
    {
      key: 'updated',
      title: t('knowledge.units.columns.updated'),
      render: (_, unit) => (
        <Tooltip title={dayjs(unit.updated_at).format('YYYY-MM-DD HH:mm:ss')}>
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
            {dayjs(unit.updated_at).fromNow()}
          </Typography.Text>
        </Tooltip>
      ),
    },
    ...(manage
      ? [
          {
            key: 'actions',
            title: t('knowledge.units.columns.actions'),
            align: 'right' as const,
            render: (_: unknown, unit: KnowledgeUnit) => {
              const can = unitActions(unit.status);
              const busy = manage.busyId === unit.id;
              return (
                <Flex gap={4} justify="flex-end" wrap>
                  {can.start ? (
                    <Button
                      size="small"
                      type="primary"
                      ghost
                      icon={<SettingOutlined />}
                      onClick={() => manage.onStart(unit)}
                      data-testid="unit-start"
                    >
                      {t('knowledge.units.start')}
                    </Button>
                  ) : null}
                  {can.cancel ? (
                    <Button
                      size="small"
                      icon={<StopOutlined />}
                      loading={busy}
                      onClick={() => manage.onCancel(unit)}
                      data-testid="unit-cancel"
                    >
                      {t('knowledge.units.cancel')}
                    </Button>
                  ) : null}
                  {can.retry && unit.status !== 'failed' ? (
                    <Button
                      size="small"
                      icon={<RedoOutlined />}
                      loading={busy}
                      onClick={() => manage.onRetry(unit)}
                      data-testid="unit-retry"
                    >
                      {t('knowledge.units.retry')}
                    </Button>
                  ) : null}
                  <Tooltip title={t('knowledge.units.delete')}>
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('knowledge.units.deleteLabel', { name: unit.file_name })}
                      onClick={() => manage.onDelete(unit)}
                      data-testid="unit-delete"
                    />
                  </Tooltip>
                </Flex>
              );
            },
          },
        ]
      : []),
  ];

  return (
    <Table<KnowledgeUnit>
      data-testid="units-table"
      rowKey="id"
      columns={columns}
      dataSource={units}
      loading={loading}
      pagination={units.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      size="middle"
      scroll={{ x: 'max-content' }}
      onRow={rowAttrs}
      locale={{ emptyText }}
    />
  );
}
