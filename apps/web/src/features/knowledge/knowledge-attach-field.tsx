import { DatabaseOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';
import { useKnowledgeList } from './knowledge-queries.ts';

/**
 * The agent editor's knowledge bases (`knowledge_ids`): any of the space's bases; answers then
 * draw on them and cite their sources. A base deleted since stays visible until removed here.
 */
export function KnowledgeAttachField({ spaceId, savedIds }: { spaceId: string; savedIds: string[] }) {
  const { t } = useTranslation();
  const go = useGo();
  const list = useKnowledgeList(spaceId, '', '');
  const items = list.data?.items ?? [];
  const known = new Set(items.map((base) => base.id));
  const missing = list.isSuccess ? savedIds.filter((id) => !known.has(id)) : [];

  const options = [
    ...items.map((base) => ({
      value: base.id,
      name: base.name,
      label: (
        <span data-testid={`agent-knowledge-option-${base.id}`}>
          <DatabaseOutlined /> {base.name}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('knowledge.attach.segments', { count: base.segment_count })}
          </Typography.Text>
        </span>
      ),
    })),
    ...missing.map((id) => ({
      value: id,
      name: id,
      label: (
        <Tag color="error" bordered={false} style={{ marginInlineEnd: 0 }}>
          {t('knowledge.attach.missing')}
        </Tag>
      ),
    })),
  ];

  return (
    <>
      <Form.Item name="knowledge_ids" label={t('knowledge.attach.label')} extra={t('knowledge.attach.help')}>
        <Select
          mode="multiple"
          allowClear
          loading={list.isPending}
          options={options}
          optionFilterProp="name"
          placeholder={t('knowledge.attach.placeholder')}
          notFoundContent={list.isPending ? undefined : t('knowledge.attach.none')}
          data-testid="agent-knowledge-select"
          aria-label={t('knowledge.attach.label')}
        />
      </Form.Item>
      {list.isSuccess && items.length === 0 ? (
        <Alert
          type="info"
          showIcon
          data-testid="agent-knowledge-none"
          title={t('knowledge.attach.noneTitle')}
          action={
            <Button size="small" onClick={() => go('knowledge')}>
              {t('routes.knowledge')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
    </>
  );
}
