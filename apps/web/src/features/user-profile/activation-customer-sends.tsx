import { Empty, Flex, List, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { SendReason, SendStateTag, SendText } from './activation-labels.tsx';
import { useActivationSends } from './activation-queries.ts';

/** The activation events a customer was part of, newest first, with what came of each. */
export function ActivationCustomerSends(props: { customerId: string; spaceId: string | null; sceneId: number }) {
  const { t } = useTranslation();
  const sends = useActivationSends(props.spaceId, props.sceneId, { customer_id: props.customerId }, 1);
  if (sends.isError) {
    return (
      <ListLoadError
        title={t('userProfile.activation.loadFailed')}
        error={sends.error}
        onRetry={() => void sends.refetch()}
        testId="customer-activation-error"
      />
    );
  }
  if (sends.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (sends.data.items.length === 0) {
    return <Empty description={t('userProfile.activation.customerNone')} data-testid="customer-activation-empty" />;
  }
  return (
    <List
      data-testid="customer-activation-sends"
      dataSource={sends.data.items}
      renderItem={(send) => (
        <List.Item>
          <Flex vertical gap={2} style={{ width: '100%' }}>
            <Flex justify="space-between" align="center" gap={8}>
              <Typography.Text strong>{send.event_name}</Typography.Text>
              <SendStateTag state={send.state} />
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              <RelativeTime iso={send.finished_at ?? send.scheduled_at} future={!send.finished_at} />
            </Typography.Text>
            <SendText text={send.text} delivered={send.state === 'sent'} />
            <SendReason reason={send.reason} pending={send.state === 'pending'} />
          </Flex>
        </List.Item>
      )}
    />
  );
}
