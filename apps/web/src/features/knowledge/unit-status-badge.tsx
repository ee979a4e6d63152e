import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  SettingOutlined,
  StopOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { KnowledgeUnit, UnitStatus } from '@athena/contract';
import { Flex, Progress, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type StatusCounts, summaryParts } from './unit-status.ts';

/** Each of a file's six indexing states has its own colour and icon, in the table and in summaries. */
export const STATUS_STYLE: Record<UnitStatus, { color: string; text: string; icon: ReactNode }> = {
  not_indexed: { color: 'purple', text: '#722ed1', icon: <SettingOutlined /> },
  waiting: { color: 'gold', text: '#d48806', icon: <ClockCircleOutlined /> },
  indexing: { color: 'processing', text: '#1677ff', icon: <SyncOutlined spin /> },
  indexed: { color: 'success', text: '#389e0d', icon: <CheckCircleOutlined /> },
  failed: { color: 'error', text: '#cf1322', icon: <CloseCircleOutlined /> },
  canceled: { color: 'default', text: '#8c8c8c', icon: <StopOutlined /> },
};

export function StatusTag({ status, testId = 'unit-status' }: { status: UnitStatus; testId?: string }) {
  const { t } = useTranslation();
  const style = STATUS_STYLE[status];
  return (
    <Tag
      color={style.color}
      icon={style.icon}
      data-testid={testId}
      data-status={status}
      style={{ marginInlineEnd: 0, width: 'fit-content' }}
    >
      {t(`knowledge.status.${status}`)}
    </Tag>
  );
}

/**
 * A unit's state where it is listed: the tag, a progress bar with % while indexing, and the
 * reason when indexing failed — never just "failed".
 */
export function UnitStatusCell({ unit }: { unit: KnowledgeUnit }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4} style={{ minWidth: 150, maxWidth: 280 }} data-testid="unit-status-cell">
      <StatusTag status={unit.status} />
      {unit.status === 'indexing' ? (
        <Progress
          percent={unit.progress}
          size="small"
          status="active"
          data-testid="unit-progress"
          data-percent={unit.progress}
          aria-label={t('knowledge.units.progressLabel', { percent: unit.progress })}
          style={{ margin: 0, width: 150 }}
        />
      ) : null}
      {unit.status === 'waiting' ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('knowledge.units.waitingHelp')}
        </Typography.Text>
      ) : null}
      {unit.status === 'failed' && unit.error ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="unit-error" data-code={unit.error.code}>
          {unit.error.message}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/** "12 indexed · 2 indexing · 1 failed", each count in its state's colour. */
export function StatusSummary({
  counts,
  testId = 'status-summary',
}: {
  counts: Partial<StatusCounts>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const parts = summaryParts(counts);
  if (parts.length === 0) {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={testId}>
        {t('knowledge.summary.noFiles')}
      </Typography.Text>
    );
  }
  return (
    <span data-testid={testId} style={{ fontSize: 12 }}>
      {parts.map((part, index) => (
        <span key={part.status} data-status={part.status}>
          {index > 0 ? <Typography.Text type="secondary"> · </Typography.Text> : null}
          <span style={{ color: STATUS_STYLE[part.status].text }}>
            {t(`knowledge.summary.${part.status}`, { count: part.count })}
          </span>
        </span>
      ))}
    </span>
  );
}
