import {
  customBusinessRoutes,
  NOTE_MAX,
  type OPERATOR_TARGET_STATUSES,
  OPERATOR_TRANSITIONS,
  QUOTE_MAX_FEN,
  type RequestDetail,
} from '@athena/contract';
import { App, Button, Card, Flex, Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { yuanToFen } from './form-rules.ts';
import { refreshCustomBusiness } from './queries.ts';

type Target = (typeof OPERATOR_TARGET_STATUSES)[number];
interface Values {
  status?: Target;
  amount?: string;
  note?: string;
}

/** The operator's control: the next statuses this one allows, with a quote amount when quoting. */
export function OperatorStatusForm({ request }: { request: RequestDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const updateStatus = useApiMutation(customBusinessRoutes.operatorUpdateStatus);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const next = OPERATOR_TRANSITIONS[request.status] as readonly Target[];
  const chosen = Form.useWatch('status', form);

  if (next.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="cab-op-final">
        {t('customBusiness.operator.final')}
      </Typography.Text>
    );
  }

  const save = async (values: Values) => {
    if (!values.status) return;
    setSaving(true);
    try {
      await updateStatus.mutateAsync({
        id: request.id,
        status: values.status,
        quote_fen: values.status === 'quoted' ? (yuanToFen(values.amount) ?? undefined) : undefined,
        note: values.note?.trim() || undefined,
      });
      void message.success(t('customBusiness.operator.saved'));
      form.resetFields();
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSaving(false);
      await refreshCustomBusiness();
    }
  };

  return (
    <Card size="small" title={t('customBusiness.operator.changeStatus')} data-testid="cab-op-form">
      <Form form={form} layout="vertical" onFinish={(values) => void save(values)} requiredMark={false}>
        <Form.Item
          name="status"
          label={t('customBusiness.operator.nextStatus')}
          rules={[{ required: true, message: t('customBusiness.operator.statusRequired') }]}
        >
          <Select
            data-testid="cab-op-status"
            placeholder={t('customBusiness.operator.statusPlaceholder')}
            options={next.map((value) => ({
              value,
              label: <span data-testid={`cab-op-status-${value}`}>{t(`customBusiness.operator.moveTo.${value}`)}</span>,
            }))}
          />
        </Form.Item>
        {chosen === 'quoted' ? (
          <Form.Item
            name="amount"
            label={t('customBusiness.operator.amount')}
            rules={[
              {
                validator: (_rule, value: string | undefined) => {
                  const fen = yuanToFen(value);
                  return fen !== null && fen > 0 && fen <= QUOTE_MAX_FEN
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('customBusiness.operator.amountInvalid')));
                },
              },
            ]}
          >
            <Input prefix="¥" inputMode="decimal" placeholder="12800.00" data-testid="cab-op-amount" />
          </Form.Item>
        ) : null}
        <Form.Item
          name="note"
          label={chosen === 'quoted' ? t('customBusiness.operator.quoteNote') : t('customBusiness.operator.note')}
        >
          <Input.TextArea maxLength={NOTE_MAX} autoSize={{ minRows: 2, maxRows: 6 }} data-testid="cab-op-note" />
        </Form.Item>
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="cab-op-submit">
            {t('customBusiness.operator.save')}
          </Button>
        </Flex>
      </Form>
    </Card>
  );
}
