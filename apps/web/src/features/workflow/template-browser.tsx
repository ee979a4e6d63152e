import { SearchOutlined } from '@ant-design/icons';
import { WORKFLOW_TEMPLATE_CATEGORIES, type WorkflowTemplate, type WorkflowTemplateCategory } from '@athena/contract';
import { Alert, Button, Empty, Flex, Input, Segmented, Skeleton } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { TemplateCard } from './template-card.tsx';
import { categoriesOf, filterTemplates } from './template-filter.ts';

interface Props {
  query: {
    data?: { items: WorkflowTemplate[] };
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  minCardWidth: number;
  selectedId?: string | null;
  onSelect?: (template: WorkflowTemplate) => void;
  actions?: (template: WorkflowTemplate) => ReactNode;
  /** Draw each card's graph small (the templates page). */
  thumbnails?: boolean;
  testId: string;
}

/** Built-in and team templates with a category switch and a search: the create dialog's picker and the templates page. */
export function TemplateBrowser(props: Props) {
  const { query, minCardWidth, selectedId = null, onSelect, actions, thumbnails = false, testId } = props;
  const { t } = useTranslation();
  const [category, setCategory] = useState<WorkflowTemplateCategory | ''>('');
  const [keyword, setKeyword] = useState('');
  const items = query.data?.items ?? [];
  const shown = filterTemplates(items, category, keyword);
  const grid = {
    display: 'grid',
    gridTemplateColumns: `repeat(auto-fill, minmax(${minCardWidth}px, 1fr))`,
    gap: 12,
  } as const;

  let body: ReactNode;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (query.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('workflows.templates.loadFailed')}
        description={errorText(query.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (shown.length === 0) body = <Empty description={t('workflows.templates.noMatch')} />;
  else {
    body = (
      <div style={grid}>
        {shown.map((template) => (
          <TemplateCard
            key={template.id}
            template={template}
            selected={template.id === selectedId}
            onClick={onSelect ? () => onSelect(template) : undefined}
            actions={actions?.(template)}
            thumbnail={thumbnails}
          />
        ))}
      </div>
    );
  }

  return (
    <Flex vertical gap={12} data-testid={testId}>
      <Flex gap={8} wrap align="center" justify="space-between">
        <Segmented<WorkflowTemplateCategory | ''>
          value={category}
          onChange={setCategory}
          data-testid="workflow-template-categories"
          options={[
            { value: '', label: t('workflows.templates.allCategories') },
            ...categoriesOf(items, WORKFLOW_TEMPLATE_CATEGORIES).map((value) => ({
              value,
              label: t(`workflows.templates.category.${value}`),
            })),
          ]}
          style={{ maxWidth: '100%', overflowX: 'auto' }}
        />
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('workflows.templates.search')}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          style={{ width: 220 }}
          maxLength={50}
          data-testid="workflow-template-search"
        />
      </Flex>
      {body}
    </Flex>
  );
}
