import { billingUsageRoutes, ERRORS } from '@athena/contract';
import { App, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { fenToYuanText, parseYuanToFen } from './money-input.ts';
import { ReasonField, YuanAmountField } from './operator-fields.tsx';

export interface RefundTarget {
  id: string;
  orderNo: string;
  /** Fen that may still be returned: the amount paid minus earlier refunds. */
  refundable: number;
}

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
        <YuanAmountField
          label={t('billing.operator.refund.amount')}
          inputMode="decimal"
          problem={(typed) => {
            const fen = parseYuanToFen(typed);
            if (fen === null) return t('billing.amount.format');
            if (fen < 1 || fen > target.refundable) {
              return ERRORS.REFUND_AMOUNT_INVALID.msg[locale].replace('{refundable}', refundable);
            }
            return null;
          }}
          testId="refund-amount"
        />
        <ReasonField testId="refund-reason" />
      </Form>
    </Modal>
  );
}
