import { ApartmentOutlined, CheckCircleFilled } from '@ant-design/icons';
import type { WorkflowTemplate } from '@athena/contract';
import { Card, Flex, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  template: WorkflowTemplate;
  selected?: boolean;
  onClick?: () => void;
  /** Buttons under the card (the templates page's "use" and "delete"). */
  actions?: ReactNode;
}

/** One template: name, description, category, built-in or the team's, and its size in nodes. */
export function TemplateCard({ template, selected = false, onClick, actions }: Props) {
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
        <Flex gap={8} align="flex-start">
          <Typography.Text strong ellipsis={{ tooltip: template.name }} style={{ flex: 1, minWidth: 0 }}>
            {template.name}
          </Typography.Text>
          {selected ? <CheckCircleFilled style={{ color: token.colorPrimary }} /> : null}
        </Flex>
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
