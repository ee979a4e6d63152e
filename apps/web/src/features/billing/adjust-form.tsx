import { billingUsageRoutes } from '@athena/contract';
import { App, Button, Form, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { parseSignedYuanToFen } from './money-input.ts';
import { ReasonField, YuanAmountField } from './operator-fields.tsx';

/** The contract's bound on one correction: ±¥10,000,000. */
const ADJUST_MAX_FEN = 1_000_000_000;

/**
 * Correct a team's balance (operators): a signed amount in yuan ("-5" takes ¥5 away) and a
 * reason that goes into the statement and the team's audit log. Asks once more before it posts.
 */
export function AdjustForm({ space, onDone }: { space: { id: string; name: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const locale = currentLocale();
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const adjust = useApiMutation(billingUsageRoutes.operatorAdjust);
  // One id per adjustment: pressing again after a lost answer does not adjust twice.
  const requestId = useRef(crypto.randomUUID());

  const submit = async () => {
    const values = await form.validateFields();
    const amount = parseSignedYuanToFen(values.amount) ?? 0;
    const shown = formatFen(Math.abs(amount), locale);
    modal.confirm({
      title: t(amount > 0 ? 'billing.operator.adjust.confirmAdd' : 'billing.operator.adjust.confirmTake', {
        amount: shown,
        name: space.name,
      }),
      content: values.reason.trim(),
      okText: t('billing.operator.adjust.submit'),
      onOk: async () => {
        try {
          const result = await adjust.mutateAsync({
            space_id: space.id,
            amount,
            reason: values.reason.trim(),
            request_id: requestId.current,
          });
          requestId.current = crypto.randomUUID();
          void message.success(
            t('billing.operator.adjust.done', { name: space.name, balance: formatFen(result.balance, locale) }),
          );
          form.resetFields();
          onDone();
        } catch {
          // The failure's notice is already showing.
        }
      },
    });
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} data-testid="adjust-form" style={{ maxWidth: 520 }}>
      <Typography.Paragraph type="secondary">{t('billing.operator.adjust.intro')}</Typography.Paragraph>
      <YuanAmountField
        label={t('billing.operator.adjust.amount')}
        placeholder={t('billing.operator.adjust.amountPlaceholder')}
        problem={(typed) => {
          const fen = parseSignedYuanToFen(typed);
          const valid = fen !== null && fen !== 0 && Math.abs(fen) <= ADJUST_MAX_FEN;
          return valid ? null : t('billing.operator.adjust.amountInvalid');
        }}
        testId="adjust-amount"
      />
      <ReasonField testId="adjust-reason" />
      <Button type="primary" onClick={() => void submit()} loading={adjust.isPending} data-testid="adjust-submit">
        {t('billing.operator.adjust.submit')}
      </Button>
    </Form>
  );
}
