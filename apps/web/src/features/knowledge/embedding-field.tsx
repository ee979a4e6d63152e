import { Alert, Button, Form, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';
import { useEmbeddingKeys } from './knowledge-queries.ts';

/**
 * The base's embedding model: one of the team's `embedding` keys, or none (full-text search only,
 * which needs no model at all). Without any key it says where keys are added.
 */
export function EmbeddingField({ spaceId, savedKeyId }: { spaceId: string; savedKeyId: string | null }) {
  const { t } = useTranslation();
  const go = useGo();
  const keys = useEmbeddingKeys(spaceId);
  const items = keys.data?.items ?? [];
  const missing = savedKeyId && keys.isSuccess && !items.some((key) => key.id === savedKeyId);

  const options = [
    {
      value: '',
      label: <span data-testid="embedding-option-none">{t('knowledge.form.embeddingNone')}</span>,
    },
    ...items.map((key) => ({
      value: key.id,
      label: (
        <span data-testid={`embedding-option-${key.id}`}>
          {key.model_name} · <Typography.Text type="secondary">{key.version}</Typography.Text>
          {key.is_default ? (
            <Tag bordered={false} color="gold" style={{ marginInlineStart: 6 }}>
              {t('knowledge.form.embeddingDefault')}
            </Tag>
          ) : null}
        </span>
      ),
    })),
    ...(missing ? [{ value: savedKeyId, label: <Tag color="error">{t('knowledge.form.embeddingMissing')}</Tag> }] : []),
  ];

  return (
    <>
      <Form.Item name="embedding" label={t('knowledge.form.embedding')} extra={t('knowledge.form.embeddingHelp')}>
        <Select options={options} loading={keys.isPending} data-testid="knowledge-embedding-select" />
      </Form.Item>
      {keys.isSuccess && items.length === 0 ? (
        <Alert
          type="info"
          showIcon
          data-testid="knowledge-no-embedding-key"
          title={t('knowledge.form.noEmbeddingTitle')}
          description={t('knowledge.form.noEmbeddingText')}
          action={
            <Button size="small" onClick={() => go('authCenter', { query: { purpose: 'embedding' } })}>
              {t('routes.authCenter')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
    </>
  );
}
