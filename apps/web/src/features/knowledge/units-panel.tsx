import { CloudUploadOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { type KnowledgeBase, UNIT_STATUSES, type UnitStatus } from '@athena/contract';
import { Alert, Badge, Button, Empty, Flex, Input, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { refreshBase, useUnitPolling } from './knowledge-queries.ts';
import { useUnitCommands } from './unit-commands.ts';
import { anyActive, countByStatus } from './unit-status.ts';
import { UnitsTable } from './units-table.tsx';

type Filter = 'all' | UnitStatus;

/** The Files tab: every unit with live status, a status filter and a name search. */
export function UnitsPanel({ base, spaceId, canEdit }: { base: KnowledgeBase; spaceId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const go = useGo();
  const units = useUnitPolling(spaceId, base.id);
  const commands = useUnitCommands(spaceId, base.id);
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const items = units.data?.items ?? [];
  const counts = countByStatus(items);
  const live = anyActive(items);
  const needle = search.trim().toLowerCase();
  const shown = items.filter(
    (unit) =>
      (filter === 'all' || unit.status === filter) && (!needle || unit.file_name.toLowerCase().includes(needle)),
  );
  const toStart = items.filter((unit) => unit.status === 'not_indexed').map((unit) => unit.id);
  const startUnits = (ids: string[]) =>
    go('knowledgeUpload', { params: { knowledgeId: base.id }, query: { units: ids.join(',') } });

  // When indexing settles, the base's counts (header, list cards) catch up once.
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void refreshBase(spaceId, base.id);
    wasLive.current = live;
  }, [live, spaceId, base.id]);

  if (units.isError && items.length === 0) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="units-error"
        title={t('knowledge.units.loadFailed')}
        description={errorText(units.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void units.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  if (units.isSuccess && items.length === 0) {
    return (
      <Empty data-testid="units-empty" description={t('knowledge.units.empty')} style={{ padding: '32px 0' }}>
        {canEdit ? (
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            onClick={() => go('knowledgeUpload', { params: { knowledgeId: base.id } })}
            data-testid="units-empty-upload"
          >
            {t('knowledge.detail.upload')}
          </Button>
        ) : null}
      </Empty>
    );
  }

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Flex gap={8} wrap align="center">
          <Select<Filter>
            value={filter}
            onChange={setFilter}
            style={{ width: 210 }}
            data-testid="units-status-filter"
            aria-label={t('knowledge.units.filter')}
            options={(['all', ...UNIT_STATUSES] as const).map((value) => ({
              value,
              label: `${value === 'all' ? t('knowledge.units.allStatuses') : t(`knowledge.status.${value}`)} · ${
                value === 'all' ? items.length : counts[value]
              }`,
            }))}
          />
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('knowledge.units.search')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            style={{ width: 220 }}
            maxLength={100}
            data-testid="units-search"
          />
          {live ? <Badge status="processing" text={t('knowledge.units.live')} data-testid="units-live" /> : null}
        </Flex>
        {canEdit && toStart.length > 0 ? (
          <Button icon={<SettingOutlined />} onClick={() => startUnits(toStart)} data-testid="units-start-all">
            {t('knowledge.units.startAll', { count: toStart.length })}
          </Button>
        ) : null}
      </Flex>
      <UnitsTable
        units={shown}
        loading={units.isPending}
        manage={
          canEdit
            ? {
                busyId: commands.busyId,
                onStart: (unit) => startUnits([unit.id]),
                onCancel: (unit) => void commands.cancel(unit),
                onRetry: (unit) => void commands.retry(unit),
                onDelete: (unit) => void commands.remove(unit),
              }
            : null
        }
        emptyText={
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            data-testid="units-no-match"
            description={<Typography.Text type="secondary">{t('knowledge.units.noMatch')}</Typography.Text>}
          />
        }
      />
    </Flex>
  );
}
