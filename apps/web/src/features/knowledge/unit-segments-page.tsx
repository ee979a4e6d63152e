import { RedoOutlined, SettingOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Flex, Row, Skeleton, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { BackTitle } from './back-title.tsx';
import { fromChunking } from './chunking.ts';
import { formatBytes } from './file-checks.ts';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { refreshBase, useKnowledgeBase, useUnit } from './knowledge-queries.ts';
import { LoadFailed } from './load-state.tsx';
import { SegmentsView } from './segments-view.tsx';
import { useUnitCommands } from './unit-commands.ts';
import { isActive, unitActions } from './unit-status.ts';
import { UnitStatusCell } from './unit-status-badge.tsx';

/** /knowledge/:knowledgeId/:unitId — one file: its facts and state, then its segments in file order. */
export function UnitSegmentsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { knowledgeId = '', unitId = '' } = useParams();
  const spaceId = useSpaceId();
  const base = useKnowledgeBase(spaceId, knowledgeId);
  const unit = useUnit(spaceId, unitId);
  const may = useKnowledgePermissions(base.data);
  const commands = useUnitCommands(spaceId, knowledgeId);
  const toBase = () => go('knowledgeDetail', { params: { knowledgeId } });

  // When its indexing ends, the segments (and the base's counts) are read again once.
  const live = unit.data ? isActive(unit.data.status) : false;
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void refreshBase(spaceId, knowledgeId);
    wasLive.current = live;
  }, [live, spaceId, knowledgeId]);

  if (base.isPending || unit.isPending || !spaceId) {
    return (
      <Card data-testid="unit-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  const failed = base.isError ? base : unit.isError ? unit : null;
  if (failed || !base.data || !unit.data) {
    return (
      <LoadFailed
        error={failed?.error}
        title={t('knowledge.units.loadOneFailed')}
        missingText={t('knowledge.units.notFound')}
        backLabel={base.isError ? t('knowledge.backToList') : t('knowledge.backToBase')}
        onBack={base.isError ? () => go('knowledge') : toBase}
        onRetry={() => void failed?.refetch()}
        testId="unit"
      />
    );
  }

  const data = unit.data;
  const can = unitActions(data.status);
  const chunking = fromChunking(data.chunking);
  const actions = may.edit ? (
    <>
      {can.start ? (
        <Button
          type="primary"
          icon={<SettingOutlined />}
          onClick={() => go('knowledgeUpload', { params: { knowledgeId }, query: { units: data.id } })}
          data-testid="unit-start"
        >
          {t('knowledge.units.start')}
        </Button>
      ) : null}
      {can.cancel ? (
        <Button
          icon={<StopOutlined />}
          loading={commands.busyId === data.id}
          onClick={() => void commands.cancel(data)}
          data-testid="unit-cancel"
        >
          {t('knowledge.units.cancel')}
        </Button>
      ) : null}
      {can.retry ? (
        <Button
          icon={<RedoOutlined />}
          loading={commands.busyId === data.id}
          onClick={() => void commands.retry(data)}
          data-testid="unit-retry"
        >
          {t('knowledge.units.retry')}
        </Button>
      ) : null}
    </>
  ) : null;

  // One fact per cell of an even grid (four to a row on wide screens): counts first, then how and when.
  const facts: { key: string; label: string; value: ReactNode }[] = [
    { key: 'status', label: t('knowledge.units.columns.status'), value: <UnitStatusCell unit={data} /> },
    { key: 'size', label: t('knowledge.units.size'), value: formatBytes(data.size) },
    { key: 'segments', label: t('knowledge.units.columns.segments'), value: data.segment_count.toLocaleString() },
    { key: 'tokens', label: t('knowledge.units.columns.tokens'), value: data.token_count.toLocaleString() },
    {
      key: 'chunking',
      label: t('knowledge.chunking.title'),
      value:
        data.table_mode?.mode === 'qa'
          ? t('knowledge.tableMode.qa')
          : chunking.mode === 'auto'
            ? t('knowledge.chunking.auto')
            : t('knowledge.units.customChunking', { size: chunking.size, overlap: chunking.overlap }),
    },
    { key: 'uploaded', label: t('knowledge.units.uploaded'), value: dayjs(data.created_at).format('YYYY-MM-DD HH:mm') },
    {
      key: 'indexed',
      label: t('knowledge.units.indexedAt'),
      value: data.indexed_at ? dayjs(data.indexed_at).format('YYYY-MM-DD HH:mm') : '—',
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="page-knowledgeUnit" data-unit-id={data.id}>
      <BackTitle
        title={data.file_name}
        tags={<Tag bordered={false}>{data.file_kind.toUpperCase()}</Tag>}
        subtitle={base.data.name}
        backLabel={t('knowledge.backToBase')}
        onBack={toBase}
        extra={actions}
      />
      <Card size="small" styles={{ body: { padding: '12px 16px' } }}>
        <Row gutter={[16, 12]} data-testid="unit-facts">
          {facts.map((fact) => (
            <Col key={fact.key} xs={12} sm={8} lg={6} data-testid="unit-fact" data-fact={fact.key}>
              <Flex vertical gap={2} style={{ minWidth: 0 }}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {fact.label}
                </Typography.Text>
                <div style={{ minWidth: 0, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}>
                  {fact.value}
                </div>
              </Flex>
            </Col>
          ))}
        </Row>
      </Card>
      {data.status === 'waiting' || data.status === 'indexing' ? (
        <Alert type="info" showIcon title={t('knowledge.units.indexingNote')} data-testid="unit-indexing-note" />
      ) : null}
      <SegmentsView
        base={base.data}
        spaceId={spaceId}
        unit={data}
        addTargets={data.status === 'indexed' ? [data] : []}
        canEdit={may.edit}
        emptyText={data.status === 'indexed' ? t('knowledge.segments.emptyUnit') : t('knowledge.segments.notYet')}
      />
    </Flex>
  );
}
