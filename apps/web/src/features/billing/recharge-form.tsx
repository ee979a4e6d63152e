import { billingRoutes, type PaymentChannelName, RECHARGE_LIMITS, type RechargeOrder } from '@athena/contract';
import { Alert, Button, Flex, Input, Radio, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ChannelName } from './billing-tags.tsx';
import { parseYuanToFen, rechargeAmountProblem } from './money-input.ts';

const DEFAULT_PRESET = RECHARGE_LIMITS.presetsFen[1];

/**
 * Step one of a recharge: a preset or an amount of one's own (checked here with the server's
 * rule: whole fen, ¥1 to ¥50,000), and how to pay. The server's refusal shows above the button.
 */
export function RechargeForm(props: { channels: PaymentChannelName[]; onCreated: (order: RechargeOrder) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const locale = currentLocale();
  const [preset, setPreset] = useState<number | null>(DEFAULT_PRESET);
  const [custom, setCustom] = useState('');
  const [touched, setTouched] = useState(false);
  const [channel, setChannel] = useState<PaymentChannelName | undefined>(props.channels[0]);
  const [error, setError] = useState<string | null>(null);
  const create = useApiMutation(billingRoutes.rechargeCreate, { meta: { errorNotice: false } });

  const problem = preset === null ? rechargeAmountProblem(custom) : null;
  const amount = preset ?? (problem ? null : parseYuanToFen(custom));
  const limits = { min: formatFen(RECHARGE_LIMITS.minFen, locale), max: formatFen(RECHARGE_LIMITS.maxFen, locale) };

  const submit = async () => {
    setTouched(true);
    if (amount === null || !channel) return;
    setError(null);
    try {
      props.onCreated(await create.mutateAsync({ amount, channel }));
    } catch (caught) {
      setError(errorNotice(caught));
    }
  };

  if (props.channels.length === 0) {
    return <Alert type="info" showIcon title={t('billing.recharge.noChannels')} data-testid="recharge-no-channels" />;
  }

  return (
    <Flex vertical gap={20} style={{ paddingTop: 8 }} data-testid="recharge-form">
      <Flex vertical gap={8}>
        <Typography.Text strong>{t('billing.recharge.amount')}</Typography.Text>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 8 }}>
          {RECHARGE_LIMITS.presetsFen.map((fen) => (
            <Button
              key={fen}
              size="large"
              type={preset === fen ? 'primary' : 'default'}
              ghost={preset === fen}
              onClick={() => {
                setPreset(fen);
                setCustom('');
                setTouched(false);
              }}
              data-testid={`recharge-preset-${fen}`}
              aria-pressed={preset === fen}
            >
              {formatFen(fen, locale).replace(/\.00$/, '')}
            </Button>
          ))}
        </div>
        <Input
          size="large"
          prefix="¥"
          inputMode="decimal"
          placeholder={t('billing.recharge.customPlaceholder')}
          value={custom}
          onChange={(event) => {
            setCustom(event.target.value);
            setPreset(null);
          }}
          onBlur={() => setTouched(custom !== '')}
          onPressEnter={() => void submit()}
          status={touched && problem ? 'error' : undefined}
          aria-label={t('billing.recharge.customPlaceholder')}
          data-testid="recharge-custom"
        />
        <Typography.Text
          type={touched && problem ? 'danger' : 'secondary'}
          style={{ fontSize: 12 }}
          data-testid="recharge-amount-hint"
        >
          {touched && problem === 'format' ? t('billing.amount.format') : t('billing.recharge.limits', limits)}
        </Typography.Text>
      </Flex>

      <Flex vertical gap={8}>
        <Typography.Text strong>{t('billing.recharge.channel')}</Typography.Text>
        <Radio.Group
          value={channel}
          onChange={(event) => setChannel(event.target.value)}
          style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
        >
          {props.channels.map((name) => (
            <Radio
              key={name}
              value={name}
              data-testid={`recharge-channel-${name}`}
              style={{
                padding: '10px 12px',
                border: `1px solid ${channel === name ? token.colorPrimary : token.colorBorderSecondary}`,
                borderRadius: token.borderRadiusLG,
                marginInlineEnd: 0,
              }}
            >
              <Flex vertical gap={2}>
                <ChannelName channel={name} />
                {name === 'dev' ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="recharge-dev-explain">
                    {t('billing.recharge.devExplain')}
                  </Typography.Text>
                ) : null}
              </Flex>
            </Radio>
          ))}
        </Radio.Group>
      </Flex>

      {error ? <Alert type="error" showIcon title={error} data-testid="recharge-error" /> : null}
      <Button
        type="primary"
        size="large"
        block
        loading={create.isPending}
        onClick={() => void submit()}
        data-testid="recharge-submit"
      >
        {amount === null
          ? t('billing.recharge.pay')
          : t('billing.recharge.payAmount', { amount: formatFen(amount, locale) })}
      </Button>
    </Flex>
  );
}
