import { FileTextOutlined, SendOutlined } from '@ant-design/icons';
import type { ActivationAudience, ActivationEvent, ProfileCustomer } from '@athena/contract';
import { Button, Empty, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { ActivationCreateModal } from './activation-create-modal.tsx';
import { ActivationEventDrawer } from './activation-event-drawer.tsx';
import { EventStatusTag } from './activation-labels.tsx';
import { ACTIVATION_PAGE_SIZE, useActivationEvents } from './activation-queries.ts';
import { ActivationTemplatesDrawer } from './activation-templates-drawer.tsx';

interface Props {
  spaceId: string | null;
  sceneId: number;
  canActivate: boolean;
  filters: ActivationAudience;
  customers: ProfileCustomer[];
}

/**
 * Activation events of the scene (docs/user-profiles.md, Activation events): each with its status
 * and counts; a new one from the customer list's filters or chosen customers; the templates.
 */
export function ActivationTab({ spaceId, sceneId, canActivate, filters, customers }: Props) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const events = useActivationEvents(spaceId, sceneId, page);

  const list = () => {
    if (events.isError) {
      return (
        <ListLoadError
          title={t('userProfile.activation.loadFailed')}
          error={events.error}
          onRetry={() => void events.refetch()}
          testId="activation-events-error"
        />
      );
    }
    return (
      <Table<ActivationEvent>
        rowKey="id"
        size="middle"
        loading={events.isPending || events.isPlaceholderData}
        dataSource={events.data?.items ?? []}
        data-testid="activation-events"
        locale={{
          emptyText: events.data ? (
            <Empty description={t('userProfile.activation.none')} data-testid="activation-events-empty" />
          ) : (
            <span />
          ),
        }}
        onRow={(event) => ({ onClick: () => setOpenId(event.id), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: ACTIVATION_PAGE_SIZE,
          total: events.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        columns={[
          {
            key: 'name',
            title: t('userProfile.activation.columns.name'),
            render: (_, event) => (
              <Flex vertical>
                <Typography.Text strong>{event.name}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {event.template_name}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            key: 'status',
            title: t('userProfile.activation.columns.status'),
            render: (_, event) => <EventStatusTag status={event.status} />,
          },
          {
            key: 'counts',
            title: t('userProfile.activation.columns.counts'),
            render: (_, event) => t('userProfile.activation.counts', { ...event.counts }),
          },
          {
            key: 'send_at',
            title: t('userProfile.activation.columns.sendAt'),
            render: (_, event) => <RelativeTime iso={event.send_at} future={event.status === 'scheduled'} />,
          },
          {
            key: 'by',
            title: t('userProfile.activation.columns.by'),
            dataIndex: 'created_by_name',
          },
        ]}
      />
    );
  };

  return (
    <Flex vertical gap={12} data-testid="activation-tab">
      <Flex gap={8} justify="flex-end">
        <Button
          icon={<FileTextOutlined />}
          onClick={() => setTemplatesOpen(true)}
          data-testid="activation-templates-open"
        >
          {t('userProfile.activation.templates.button')}
        </Button>
        {canActivate ? (
          <Button type="primary" icon={<SendOutlined />} onClick={() => setCreating(true)} data-testid="activation-new">
            {t('userProfile.activation.create.button')}
          </Button>
        ) : null}
      </Flex>
      {list()}
      <ActivationEventDrawer
        eventId={openId}
        onClose={() => setOpenId(null)}
        canActivate={canActivate}
        spaceId={spaceId}
        sceneId={sceneId}
      />
      <ActivationTemplatesDrawer
        open={templatesOpen}
        onClose={() => setTemplatesOpen(false)}
        canActivate={canActivate}
        spaceId={spaceId}
        sceneId={sceneId}
      />
      <ActivationCreateModal
        open={creating}
        onClose={() => setCreating(false)}
        spaceId={spaceId}
        sceneId={sceneId}
        filters={filters}
        customers={customers}
        onCreated={(id) => {
          setCreating(false);
          setOpenId(id);
        }}
      />
    </Flex>
  );
}
