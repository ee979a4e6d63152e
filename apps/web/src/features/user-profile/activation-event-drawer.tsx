import type { ActivationSend } from '@athena/contract';
import { activationRoutes } from '@athena/contract';
import { App, Button, Descriptions, Drawer, Popconfirm, Skeleton, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { EventStatusTag, SendReason, SendStateTag, SendText } from './activation-labels.tsx';
import {
  ACTIVATION_PAGE_SIZE,
  isLive,
  refreshActivation,
  useActivationEvent,
  useActivationSends,
} from './activation-queries.ts';

interface Props {
  eventId: string | null;
  onClose: () => void;
  canActivate: boolean;
  spaceId: string | null;
  sceneId: number;
}

/** One activation event: what it sends, its counts, and each customer's state with the reason. */
export function ActivationEventDrawer({ eventId, onClose, canActivate, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const event = useActivationEvent(spaceId, sceneId, eventId);
  const sends = useActivationSends(
    spaceId,
    sceneId,
    { event_id: eventId ?? '' },
    page,
    event.data ? isLive(event.data) : false,
  );

  const cancel = async () => {
    if (!eventId) return;
    try {
      await api(activationRoutes.eventCancel, { id: eventId });
      void message.success(t('userProfile.activation.event.cancelled'));
      await refreshActivation(spaceId, sceneId);
    } catch (error) {
      showErrorNotice(error);
    }
  };

  const body = () => {
    if (event.isError) {
      return (
        <ListLoadError
          title={t('userProfile.activation.loadFailed')}
          error={event.error}
          onRetry={() => void event.refetch()}
          testId="activation-event-error"
        />
      );
    }
    if (!event.data) return <Skeleton active />;
    const data = event.data;
    return (
      <>
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('userProfile.activation.event.status')}>
            <EventStatusTag status={data.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('userProfile.activation.event.sendAt')}>
            <RelativeTime iso={data.send_at} future />
          </Descriptions.Item>
          <Descriptions.Item label={t('userProfile.activation.event.template')}>
            {data.template_name} · {t(`userProfile.activation.mode.${data.mode}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('userProfile.activation.event.body')}>
            <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{data.body}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('userProfile.activation.event.counts')}>
            <span data-testid="activation-event-counts">{t('userProfile.activation.counts', { ...data.counts })}</span>
          </Descriptions.Item>
        </Descriptions>
        {sends.isError ? (
          <ListLoadError
            title={t('userProfile.activation.loadFailed')}
            error={sends.error}
            onRetry={() => void sends.refetch()}
            testId="activation-sends-error"
          />
        ) : (
          <Table<ActivationSend>
            size="small"
            rowKey="customer_id"
            loading={sends.isPending || sends.isPlaceholderData}
            dataSource={sends.data?.items ?? []}
            data-testid="activation-sends"
            pagination={{
              current: page,
              pageSize: ACTIVATION_PAGE_SIZE,
              total: sends.data?.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
            columns={[
              {
                key: 'customer',
                title: t('userProfile.activation.event.customer'),
                dataIndex: 'customer_name',
                width: 120,
              },
              {
                key: 'state',
                title: t('userProfile.activation.event.state'),
                width: 200,
                render: (_, send) => (
                  <>
                    <SendStateTag state={send.state} />
                    <div>
                      <SendReason reason={send.reason} pending={send.state === 'pending'} />
                    </div>
                  </>
                ),
              },
              {
                key: 'message',
                title: t('userProfile.activation.event.message'),
                render: (_, send) => <SendText text={send.text} delivered={send.state === 'sent'} />,
              },
              { key: 'attempts', title: t('userProfile.activation.event.attempts'), dataIndex: 'attempts', width: 80 },
            ]}
          />
        )}
      </>
    );
  };

  const open = event.data?.status === 'scheduled' || event.data?.status === 'sending';
  return (
    <Drawer
      open={eventId !== null}
      onClose={onClose}
      width="min(800px, 100vw)"
      title={event.data?.name ?? t('userProfile.activation.event.title')}
      extra={
        canActivate && open ? (
          <Popconfirm title={t('userProfile.activation.event.cancelConfirm')} onConfirm={() => void cancel()}>
            <Button danger data-testid="activation-event-cancel">
              {t('userProfile.activation.event.cancel')}
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      {body()}
    </Drawer>
  );
}
