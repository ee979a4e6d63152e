import { mcpRoutes, type RouteData } from '@athena/contract';
import { Alert, DatePicker, Form, Input, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { EXPIRY_PRESETS, type ExpiryPreset, expiryFor, isPickableExpiryDay } from './mcp-logic.ts';

type Created = RouteData<typeof mcpRoutes.tokenCreate>;

interface Values {
  name: string;
  preset: ExpiryPreset;
  day?: Dayjs | null;
}

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (token: Created) => void;
}

/** A name and an expiry (30, 90 or 365 days, never, or a day up to MCP_LIMITS.maxTokenDays away). */
export function TokenCreateModal({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const preset = Form.useWatch('preset', form);
  const [error, setError] = useState<string | null>(null);
  const create = useApiMutation(mcpRoutes.tokenCreate, { meta: { errorNotice: false } });

  const submit = async (values: Values) => {
    setError(null);
    const expiresAt = expiryFor(values.preset, Date.now(), values.day?.toDate());
    if (expiresAt === undefined) {
      form.setFields([{ name: 'day', errors: [t('mcp.tokens.dayRequired')] }]);
      return;
    }
    try {
      onCreated(await create.mutateAsync({ name: values.name.trim(), expires_at: expiresAt }));
      form.resetFields();
    } catch (caught) {
      setError(errorNotice(caught));
    }
  };

  return (
    <Modal
      open={open}
      title={t('mcp.tokens.create')}
      okText={t('mcp.tokens.createOk')}
      cancelText={t('mcp.cancel')}
      confirmLoading={create.isPending}
      okButtonProps={{ 'data-testid': 'mcp-token-create-ok' }}
      onOk={() => form.submit()}
      onCancel={() => {
        setError(null);
        onClose();
      }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ preset: '90' }}
        onFinish={(values) => void submit(values)}
        preserve={false}
      >
        <Form.Item
          name="name"
          label={t('mcp.tokens.name')}
          extra={t('mcp.tokens.nameHint')}
          rules={[{ required: true, whitespace: true, message: t('mcp.tokens.nameRequired') }]}
        >
          <Input autoFocus maxLength={50} placeholder={t('mcp.tokens.namePlaceholder')} data-testid="mcp-token-name" />
        </Form.Item>
        <Form.Item name="preset" label={t('mcp.tokens.expiry')}>
          <Select
            data-testid="mcp-token-expiry"
            options={EXPIRY_PRESETS.map((value) => ({ value, label: t(`mcp.tokens.presets.${value}`) }))}
          />
        </Form.Item>
        {preset === 'custom' ? (
          <Form.Item name="day" label={t('mcp.tokens.expiryDay')}>
            <DatePicker
              style={{ width: '100%' }}
              disabledDate={(day) => !isPickableExpiryDay(day.toDate(), Date.now())}
              data-testid="mcp-token-day"
            />
          </Form.Item>
        ) : null}
        {preset === 'never' ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            {t('mcp.tokens.neverHint')}
          </Typography.Paragraph>
        ) : null}
      </Form>
      {error ? <Alert type="error" showIcon title={error} data-testid="mcp-token-create-error" /> : null}
    </Modal>
  );
}
