import type { PaymentChannelName, RechargeOrder } from '@athena/contract';
import { Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { RechargeForm } from './recharge-form.tsx';
import { RechargeOrderView } from './recharge-order.tsx';

/** Amount and channel first; then the order's QR until it is paid, closed or failed. */
function RechargeFlow(props: { spaceId: string; channels: PaymentChannelName[]; onClose: () => void }) {
  const [order, setOrder] = useState<RechargeOrder | null>(null);
  if (!order) {
    return (
      <RechargeForm
        channels={props.channels}
        onCreated={(created) => {
          queryClient.setQueryData(queryKeys.billing.order(props.spaceId, created.id), created);
          setOrder(created);
        }}
      />
    );
  }
  return (
    <RechargeOrderView
      key={order.id}
      spaceId={props.spaceId}
      initial={order}
      onRestart={() => setOrder(null)}
      onClose={props.onClose}
    />
  );
}

/**
 * The recharge dialog. Closing it leaves an unpaid order open (the payer may be paying on the
 * phone right now); it closes by itself when it expires, or with "cancel order".
 */
export function RechargeDialog(props: {
  open: boolean;
  spaceId: string;
  channels: PaymentChannelName[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={props.open}
      title={t('billing.recharge.title')}
      onCancel={props.onClose}
      footer={null}
      destroyOnHidden
      width={520}
      maskClosable={false}
    >
      <div data-testid="recharge-dialog">
        <RechargeFlow spaceId={props.spaceId} channels={props.channels} onClose={props.onClose} />
      </div>
    </Modal>
  );
}
