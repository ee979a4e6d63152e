import { ERRORS } from '@athena/contract';
import { Form, Input, type InputProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';

/** The contract's bound on an operator's reason. */
const REASON_MAX = 200;

/**
 * An amount in yuan as typed (form field `amount`). `problem` says what is wrong with it, or null:
 * each form has its own rule (a refund up to what is left, a correction either way).
 */
export function YuanAmountField({
  label,
  problem,
  testId,
  ...input
}: {
  label: string;
  problem: (typed: string) => string | null;
  testId: string;
} & Pick<InputProps, 'placeholder' | 'inputMode'>) {
  return (
    <Form.Item
      name="amount"
      label={label}
      rules={[
        {
          validator: (_rule, value: string | undefined) => {
            const text = problem(value ?? '');
            return text === null ? Promise.resolve() : Promise.reject(new Error(text));
          },
        },
      ]}
    >
      <Input prefix="¥" {...input} data-testid={testId} />
    </Form.Item>
  );
}

/**
 * Why an operator refunds or corrects a balance (form field `reason`): required, since it goes into
 * the statement and the team's audit log; the server's own message when it is missing.
 */
export function ReasonField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <Form.Item
      name="reason"
      label={t('billing.operator.reason')}
      rules={[
        {
          validator: (_rule, value: string | undefined) =>
            value?.trim() ? Promise.resolve() : Promise.reject(new Error(ERRORS.BILLING_REASON_REQUIRED.msg[locale])),
        },
      ]}
    >
      <Input.TextArea maxLength={REASON_MAX} showCount autoSize={{ minRows: 2 }} data-testid={testId} />
    </Form.Item>
  );
}
