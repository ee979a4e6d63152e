import { billingUsageRoutes, ERRORS } from '@athena/contract';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { fenToYuanText, parseYuanToFen } from './money-input.ts';

export interface RefundTarget {
  id: string;
  orderNo: string;
  /** Fen that may still be returned: the amount paid minus earlier refunds. */
  refundable: number;
}

const REASON_MAX = 200;

/** Return (part of) a paid recharge to the payer (operators): an amount up to what is left, and why. */
export function RefundModal(props: {
  target: RefundTarget | null;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const locale = currentLocale();
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const [saving, setSaving] = useState(false);
  const refund = useApiMutation(billingUsageRoutes.operatorRefund);
  const target = props.target;
  if (!target) return null;
  const refundable = formatFen(target.refundable, locale);

  const submit = async () => {
    const values = await form.validateFields();
    const amount = parseYuanToFen(values.amount) ?? 0;
    setSaving(true);
    try {
      const result = await refund.mutateAsync({ order_id: target.id, amount, reason: values.reason.trim() });
      void message.success(
        t('billing.operator.refund.done', {
          amount: formatFen(amount, locale),
          balance: formatFen(result.balance, locale),
        }),
      );
      props.onDone();
      props.onClose();
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={t('billing.operator.refund.title', { orderNo: target.orderNo })}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('billing.operator.refund.submit')}
      okButtonProps={{ danger: true }}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ amount: fenToYuanText(target.refundable), reason: '' }}
        data-testid="refund-form"
      >
        <Typography.Paragraph type="secondary">
          {t('billing.operator.refund.intro', { refundable })}
        </Typography.Paragraph>
        <Form.Item
          name="amount"
          label={t('billing.operator.refund.amount')}
          rules={[
            {
              validator: (_rule, value: string | undefined) => {
                const fen = parseYuanToFen(value ?? '');
                if (fen === null) return Promise.reject(new Error(t('billing.amount.format')));
                if (fen < 1 || fen > target.refundable) {
                  return Promise.reject(
                    new Error(ERRORS.REFUND_AMOUNT_INVALID.msg[locale].replace('{refundable}', refundable)),
                  );
                }
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input prefix="¥" inputMode="decimal" data-testid="refund-amount" />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('billing.operator.reason')}
          rules={[
            {
              validator: (_rule, value: string | undefined) =>
                value?.trim()
                  ? Promise.resolve()
                  : Promise.reject(new Error(ERRORS.BILLING_REASON_REQUIRED.msg[locale])),
            },
          ]}
        >
          <Input.TextArea maxLength={REASON_MAX} showCount autoSize={{ minRows: 2 }} data-testid="refund-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
