import { ApartmentOutlined, CheckCircleFilled } from '@ant-design/icons';
import type { WorkflowTemplate } from '@athena/contract';
import { Card, Flex, Tag, Typography, theme } from 'antd';
import { memo, type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { thumbnailOf } from './template-geometry.ts';

interface Props {
  template: WorkflowTemplate;
  selected?: boolean;
  onClick?: () => void;
  /** Buttons under the card (the templates page's "use" and "delete"). */
  actions?: ReactNode;
  /** A small drawing of the graph on top (the templates page; the create dialog's picker is too short for it). */
  thumbnail?: boolean;
}

/** One template: name, description, category, built-in or the team's, and its size in nodes. */
export function TemplateCard({ template, selected = false, onClick, actions, thumbnail = false }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Card
      hoverable={Boolean(onClick)}
      onClick={onClick}
      size="small"
      data-testid="workflow-template-card"
      data-template-id={template.id}
      data-template-name={template.name}
      data-selected={selected}
      style={{
        height: '100%',
        borderColor: selected ? token.colorPrimary : undefined,
        boxShadow: selected ? `0 0 0 1px ${token.colorPrimary}` : undefined,
      }}
      styles={{ body: { height: '100%' } }}
    >
      <Flex vertical gap={8} style={{ height: '100%' }}>
        {thumbnail ? <Thumbnail template={template} /> : null}
        <Flex gap={8} align="flex-start">
          <Typography.Text strong ellipsis={{ tooltip: template.name }} style={{ flex: 1, minWidth: 0 }}>
            {template.name}
          </Typography.Text>
          {selected ? <CheckCircleFilled style={{ color: token.colorPrimary }} /> : null}
        </Flex>
        <TemplateTags template={template} />
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0, flex: 1, fontSize: 13 }}>
          {template.description}
        </Typography.Paragraph>
        {template.created_by ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('workflows.templates.by', { name: template.created_by.nickname })}
          </Typography.Text>
        ) : null}
        {actions ? (
          <Flex gap={8} justify="flex-end" onClick={(event) => event.stopPropagation()}>
            {actions}
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}

/** Built-in or the team's, the category, and the size in nodes: on the cards and in the use dialog. */
export function TemplateTags({ template }: { template: WorkflowTemplate }) {
  const { t } = useTranslation();
  return (
    <Flex gap={4} wrap>
      <Tag bordered={false} color={template.builtin ? 'purple' : 'cyan'} style={{ marginInlineEnd: 0 }}>
        {template.builtin ? t('workflows.templates.builtin') : t('workflows.templates.team')}
      </Tag>
      <Tag bordered={false} style={{ marginInlineEnd: 0 }} data-testid="workflow-template-category">
        {t(`workflows.templates.category.${template.category}`)}
      </Tag>
      <Tag bordered={false} icon={<ApartmentOutlined />} style={{ marginInlineEnd: 0 }}>
        {t('workflows.templates.nodes', { count: template.node_count })}
      </Tag>
    </Flex>
  );
}

/**
 * The graph's boxes in their kinds' colours and its connections, like the editor's minimap. Plain
 * SVG: a page of cards must not load React Flow (the use dialog's preview does, when opened).
 */
const Thumbnail = memo(function Thumbnail({ template }: { template: WorkflowTemplate }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const thumb = useMemo(() => thumbnailOf(template.graph), [template.graph]);
  return (
    <svg
      role="img"
      aria-label={t('workflows.templates.thumbnailLabel', { name: template.name })}
      viewBox={thumb.viewBox}
      preserveAspectRatio="xMidYMid meet"
      style={{ width: '100%', height: 88, display: 'block', background: token.colorFillQuaternary, borderRadius: 6 }}
      data-testid="workflow-template-thumbnail"
    >
      {thumb.paths.map((path) => (
        <path
          key={path.id}
          d={path.d}
          fill="none"
          stroke={token.colorTextQuaternary}
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {thumb.boxes.map((box) => (
        <rect
          key={box.id}
          x={box.x}
          y={box.y}
          width={box.width}
          height={box.height}
          rx={box.container ? 16 : 12}
          fill={box.container ? token.colorFillTertiary : box.color}
          fillOpacity={box.container ? 1 : 0.85}
          stroke={box.container ? token.colorBorder : 'none'}
          strokeDasharray={box.container ? '4 3' : undefined}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
});
