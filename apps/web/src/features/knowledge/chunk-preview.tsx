import { EyeOutlined } from '@ant-design/icons';
import { type Chunking, type KnowledgeUnit, knowledgeRoutes, type RouteBody, type TableMode } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Select, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { positionLabel } from './segment-locate.ts';
import { SegmentText } from './segment-text.tsx';

const PREVIEW_LIMIT = 10;

interface Props {
  units: KnowledgeUnit[];
  chunking: Chunking | null;
  /** The table mode of a unit (spreadsheets), or null. */
  tableModeOf: (unit: KnowledgeUnit) => TableMode | null;
}

/**
 * The first chunks one file would be cut into with the settings on screen (nothing is written).
 * Once asked for, it follows every change of the settings.
 */
export function ChunkPreview({ units, chunking, tableModeOf }: Props) {
  const { t } = useTranslation();
  const [unitId, setUnitId] = useState(units[0]?.id ?? '');
  const [wanted, setWanted] = useState(false);
  const unit = units.find((item) => item.id === unitId) ?? units[0];
  // Debounced as text: a fresh object each render would never settle.
  const settled = useDebouncedValue(
    JSON.stringify(
      unit && chunking ? { id: unit.id, chunking, table_mode: tableModeOf(unit), limit: PREVIEW_LIMIT } : null,
    ),
    400,
  );
  const request = JSON.parse(settled) as RouteBody<typeof knowledgeRoutes.unitPreview> | null;
  const preview = useQuery({
    queryKey: queryKeys.knowledge.preview(settled),
    queryFn: () => api(knowledgeRoutes.unitPreview, request!),
    enabled: wanted && request !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });

  return (
    <Card
      size="small"
      title={t('knowledge.preview.title')}
      data-testid="chunk-preview"
      extra={
        <Flex gap={8} align="center">
          <Select
            size="small"
            value={unit?.id}
            onChange={setUnitId}
            style={{ width: 'min(220px, 40vw)' }}
            aria-label={t('knowledge.preview.file')}
            data-testid="chunk-preview-file"
            options={units.map((item) => ({ value: item.id, label: item.file_name }))}
          />
          <Button
            size="small"
            type="primary"
            ghost
            icon={<EyeOutlined />}
            disabled={!chunking || !unit}
            loading={wanted && preview.isFetching}
            onClick={() => (wanted ? void preview.refetch() : setWanted(true))}
            data-testid="chunk-preview-run"
          >
            {t('knowledge.preview.run')}
          </Button>
        </Flex>
      }
    >
      {!wanted ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('knowledge.preview.idle')}
          data-testid="chunk-preview-idle"
        />
      ) : preview.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="chunk-preview-error"
          title={errorText(preview.error, currentLocale())}
        />
      ) : !preview.data ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : preview.data.chunks.length === 0 ? (
        <Empty description={t('knowledge.preview.none')} data-testid="chunk-preview-none" />
      ) : (
        <Flex vertical gap={8} style={{ opacity: preview.isFetching ? 0.6 : 1 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="chunk-preview-summary">
            {t('knowledge.preview.summary', { shown: preview.data.chunks.length, total: preview.data.total })}
          </Typography.Text>
          {preview.data.chunks.map((chunk) => (
            <div
              key={chunk.position}
              data-testid="chunk-preview-item"
              style={{ border: '1px solid rgba(127,127,127,0.2)', borderRadius: 8, padding: '8px 12px' }}
            >
              <Flex gap={8} style={{ marginBottom: 6 }}>
                <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
                  {positionLabel(chunk.position)}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('knowledge.segments.tokens', { count: chunk.tokens })} ·{' '}
                  {t('knowledge.segments.chars', { count: (chunk.question + chunk.answer + chunk.content).length })}
                </Typography.Text>
              </Flex>
              <SegmentText segment={chunk} clamp={5} />
            </div>
          ))}
        </Flex>
      )}
    </Card>
  );
}
