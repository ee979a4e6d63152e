import { DeleteOutlined, EditOutlined, FileTextOutlined } from '@ant-design/icons';
import type { Segment } from '@athena/contract';
import { Button, Card, Flex, Switch, Tag, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buildHref } from '../../lib/navigation.ts';
import { positionLabel } from './segment-locate.ts';
import { SegmentText } from './segment-text.tsx';

interface Props {
  segment: Segment;
  keyword: string;
  /** On the base's page every card names its file. */
  showFile: boolean;
  /** The segment a link pointed at (?segment=): outlined until the next one. */
  highlighted: boolean;
  /** The base has an embedding model, so a segment without a vector is worth saying. */
  vectors: boolean;
  ref?: Ref<HTMLDivElement>;
  /** Null for people who may only look. */
  manage: null | {
    busy: boolean;
    onToggle: (enabled: boolean) => void;
    onEdit: () => void;
    onDelete: () => void;
  };
}

/** One segment: where it sits, its words, how often retrieval found it, and what can be done. */
export function SegmentCard({ segment, keyword, showFile, highlighted, vectors, manage, ref }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div ref={ref} style={{ scrollMarginTop: 80 }}>
      <Card
        size="small"
        data-testid="segment-card"
        data-segment-id={segment.id}
        data-enabled={segment.enabled}
        data-highlighted={highlighted}
        style={{
          opacity: segment.enabled ? 1 : 0.65,
          borderColor: highlighted ? token.colorPrimary : undefined,
          background: highlighted ? token.colorPrimaryBg : undefined,
          boxShadow: highlighted ? `0 0 0 3px ${token.colorPrimaryBg}` : undefined,
          transition: 'box-shadow 0.3s',
        }}
        styles={{ body: { padding: 14 } }}
      >
        <Flex vertical gap={10}>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Flex align="center" gap={6} wrap style={{ minWidth: 0 }}>
              <Tag bordered={false} color="blue" style={{ marginInlineEnd: 0 }} data-testid="segment-position">
                {positionLabel(segment.position)}
              </Tag>
              {showFile ? (
                <Link
                  to={buildHref('knowledgeUnit', {
                    params: { knowledgeId: segment.knowledge_id, unitId: segment.unit_id },
                    query: { segment: segment.id },
                  })}
                  data-testid="segment-file"
                >
                  <Typography.Text ellipsis style={{ maxWidth: 260, color: 'inherit' }} title={segment.file_name}>
                    <FileTextOutlined /> {segment.file_name}
                  </Typography.Text>
                </Link>
              ) : null}
              {segment.manual ? (
                <Tag bordered={false} style={{ marginInlineEnd: 0 }} data-testid="segment-manual">
                  {t('knowledge.segments.manual')}
                </Tag>
              ) : null}
              {segment.enabled ? null : (
                <Tag bordered={false} color="default" style={{ marginInlineEnd: 0 }} data-testid="segment-disabled">
                  {t('knowledge.segments.disabled')}
                </Tag>
              )}
            </Flex>
            {manage ? (
              <Flex align="center" gap={4}>
                <Tooltip title={segment.enabled ? t('knowledge.segments.disable') : t('knowledge.segments.enable')}>
                  <Switch
                    size="small"
                    checked={segment.enabled}
                    loading={manage.busy}
                    onChange={manage.onToggle}
                    aria-label={t('knowledge.segments.enabledLabel')}
                    data-testid="segment-enabled"
                  />
                </Tooltip>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={manage.onEdit}
                  data-testid="segment-edit"
                >
                  {t('knowledge.segments.edit')}
                </Button>
                <Tooltip title={t('knowledge.segments.delete')}>
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={manage.onDelete}
                    aria-label={t('knowledge.segments.delete')}
                    data-testid="segment-delete"
                  />
                </Tooltip>
              </Flex>
            ) : null}
          </Flex>
          <SegmentText segment={segment} keyword={keyword} />
          <Flex gap={12} wrap style={{ fontSize: 12 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="segment-tokens">
              {t('knowledge.segments.tokens', { count: segment.tokens })}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="segment-hits">
              {t('knowledge.segments.hits', { count: segment.hit_count })}
            </Typography.Text>
            {segment.embedded || !vectors ? null : (
              <Tooltip title={t('knowledge.segments.notEmbeddedHelp')}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('knowledge.segments.notEmbedded')}
                </Typography.Text>
              </Tooltip>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('knowledge.segments.updated', { time: dayjs(segment.updated_at).fromNow() })}
            </Typography.Text>
          </Flex>
        </Flex>
      </Card>
    </div>
  );
}
