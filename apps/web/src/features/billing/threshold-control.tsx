import { BellOutlined, EditOutlined } from '@ant-design/icons';
import { billingRoutes, LOW_BALANCE_MAX_FEN } from '@athena/contract';
import { App, Button, Flex, Input, Popover, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { fenToYuanText, parseYuanToFen } from './money-input.ts';

/** The form inside the popover: a yuan amount, saved as fen, or "turn off". */
function ThresholdForm({ threshold, onDone }: { threshold: number | null; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const spaceId = useSpaceId();
  const [typed, setTyped] = useState(threshold === null ? '' : fenToYuanText(threshold));
  const [touched, setTouched] = useState(false);
  const save = useApiMutation(billingRoutes.settingsUpdate);
  const fen = parseYuanToFen(typed);
  const problem = fen === null ? 'format' : fen > LOW_BALANCE_MAX_FEN ? 'range' : null;

  const submit = async (value: number | null) => {
    setTouched(true);
    if (value !== null && problem) return;
    try {
      const summary = await save.mutateAsync({ low_balance_threshold: value });
      queryClient.setQueryData(queryKeys.billing.summary(spaceId), summary);
      void message.success(t(value === null ? 'billing.threshold.turnedOff' : 'billing.threshold.saved'));
      onDone();
    } catch {
      // The failure's notice is already showing.
    }
  };

  return (
    <Flex vertical gap={8} style={{ width: 280 }} data-testid="fees-threshold-form">
      <Typography.Text type="secondary">{t('billing.threshold.explain')}</Typography.Text>
      <Input
        prefix="¥"
        inputMode="decimal"
        value={typed}
        autoFocus
        onChange={(event) => setTyped(event.target.value)}
        onPressEnter={() => void submit(fen)}
        status={touched && problem ? 'error' : undefined}
        placeholder={t('billing.threshold.placeholder')}
        aria-label={t('billing.threshold.label')}
        data-testid="fees-threshold-input"
      />
      {touched && problem ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="fees-threshold-error">
          {t(problem === 'format' ? 'billing.amount.format' : 'billing.threshold.tooHigh', {
            max: formatFen(LOW_BALANCE_MAX_FEN, currentLocale()),
          })}
        </Typography.Text>
      ) : null}
      <Flex justify="space-between" gap={8}>
        <Button
          size="small"
          disabled={threshold === null}
          loading={save.isPending && save.variables?.low_balance_threshold === null}
          onClick={() => void submit(null)}
          data-testid="fees-threshold-off"
        >
          {t('billing.threshold.turnOff')}
        </Button>
        <Button
          type="primary"
          size="small"
          loading={save.isPending && save.variables?.low_balance_threshold !== null}
          onClick={() => void submit(fen)}
          data-testid="fees-threshold-save"
        >
          {t('billing.threshold.save')}
        </Button>
      </Flex>
    </Flex>
  );
}

/** "Low-balance notice: below ¥100.00" (or off), with a change button for creator and admins. */
export function ThresholdControl({ threshold, canManage }: { threshold: number | null; canManage: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const state =
    threshold === null
      ? t('billing.threshold.off')
      : t('billing.threshold.below', { amount: formatFen(threshold, currentLocale()) });
  if (!canManage && threshold === null) return null;
  return (
    <Flex align="center" gap={4} wrap>
      <Typography.Text type="secondary" data-testid="fees-threshold" data-threshold={threshold ?? ''}>
        <BellOutlined style={{ marginInlineEnd: 6 }} />
        {t('billing.threshold.state', { state })}
      </Typography.Text>
      {canManage ? (
        <Popover
          trigger="click"
          open={open}
          onOpenChange={setOpen}
          destroyOnHidden
          title={t('billing.threshold.title')}
          content={<ThresholdForm threshold={threshold} onDone={() => setOpen(false)} />}
        >
          <Button type="link" size="small" icon={<EditOutlined />} data-testid="fees-threshold-edit">
            {t('billing.threshold.change')}
          </Button>
        </Popover>
      ) : null}
    </Flex>
  );
}
