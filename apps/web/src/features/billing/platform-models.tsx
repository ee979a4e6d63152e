import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { billingUsageRoutes, formatMillifen, type PlatformModel } from '@athena/contract';
import { Button, Card, Empty, Flex, Switch, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { refreshPlatformModels, usePlatformModels } from './billing-queries.ts';
import { PlatformModelModal } from './platform-model-modal.tsx';

/** The catalogue of priced platform models (operators): add, change prices, switch one off. */
export function PlatformModels({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const models = usePlatformModels(spaceId);
  const dialog = useModalSession<PlatformModel | null>(null);
  const update = useApiMutation(billingUsageRoutes.platformModelUpdate);
  const [switching, setSwitching] = useState<string | null>(null);

  const setEnabled = async (model: PlatformModel, enabled: boolean) => {
    setSwitching(model.id);
    try {
      await update.mutateAsync({
        id: model.id,
        model_name: model.model_name,
        version: model.version,
        base_url: model.base_url ?? '',
        input_price: model.input_price,
        output_price: model.output_price,
        enabled,
      });
      await refreshPlatformModels(spaceId);
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSwitching(null);
    }
  };

  const price = (millifen: number) => (
    <span style={{ fontVariantNumeric: 'tabular-nums' }}>
      {t('billing.operator.models.pricePer1k', { amount: formatMillifen(millifen, locale) })}
    </span>
  );
  const columns: TableProps<PlatformModel>['columns'] = [
    {
      key: 'name',
      title: t('billing.operator.models.name'),
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text strong>{row.model_name}</Typography.Text>
          <Typography.Text type="secondary" code>
            {row.version}
          </Typography.Text>
        </Flex>
      ),
    },
    { key: 'in', title: t('billing.operator.models.inputPrice'), render: (_, row) => price(row.input_price) },
    { key: 'out', title: t('billing.operator.models.outputPrice'), render: (_, row) => price(row.output_price) },
    {
      key: 'endpoint',
      title: t('billing.operator.models.baseUrl'),
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text ellipsis={{ tooltip: row.base_url }} style={{ maxWidth: 240 }}>
            {row.base_url ?? '—'}
          </Typography.Text>
          <Typography.Text type="secondary">{row.api_key_masked ?? ''}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'enabled',
      title: t('billing.operator.models.enabled'),
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          loading={switching === row.id}
          onChange={(checked) => void setEnabled(row, checked)}
          data-testid="platform-model-toggle"
        />
      ),
    },
    {
      key: 'actions',
      title: '',
      render: (_, row) => (
        <Button size="small" icon={<EditOutlined />} onClick={() => dialog.show(row)} data-testid="platform-model-edit">
          {t('billing.operator.models.edit')}
        </Button>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title={t('billing.operator.models.title')}
      extra={
        <Button
          type="primary"
          size="small"
          icon={<PlusOutlined />}
          onClick={() => dialog.show(null)}
          data-testid="platform-model-add"
        >
          {t('billing.operator.models.add')}
        </Button>
      }
      data-testid="platform-models"
    >
      <Typography.Paragraph type="secondary">{t('billing.operator.models.intro')}</Typography.Paragraph>
      {models.isError ? (
        <ListLoadError
          title={t('billing.loadFailedShort')}
          error={models.error}
          onRetry={() => void models.refetch()}
          testId="platform-models-error"
        />
      ) : (
        <Table<PlatformModel>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={models.data?.items ?? []}
          loading={models.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(row) => dataAttrs({ 'data-testid': 'platform-model-row', 'data-id': row.id })}
          locale={{
            emptyText: models.isPending ? (
              ' '
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing.operator.models.empty')} />
            ),
          }}
        />
      )}
      <PlatformModelModal
        key={dialog.key}
        open={dialog.open}
        editing={dialog.value}
        spaceId={spaceId}
        onClose={dialog.close}
      />
    </Card>
  );
}
