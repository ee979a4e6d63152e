import { MessageOutlined, UserOutlined } from '@ant-design/icons';
import { type ProfileCustomer, type ProfileField, profileRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Avatar, Button, Descriptions, Drawer, Empty, Flex, Grid, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { RouteButton } from '../chat-history/route-link.tsx';
import { ActivationCustomerSends } from './activation-customer-sends.tsx';
import { BehaviourTimeline } from './behaviour-timeline.tsx';
import { ExtractButton, ExtractStatus } from './extract-button.tsx';
import { FieldValueRow } from './field-value-row.tsx';
import { HistoryTimeline } from './history-timeline.tsx';
import { useCustomer } from './profile-queries.ts';
import { SatisfactionRatings } from './satisfaction-ratings.tsx';

interface Props {
  customerId: string | null;
  /** The list's row, shown while the customer loads. */
  initial: ProfileCustomer | undefined;
  fields: readonly ProfileField[];
  canDefine: boolean;
  /** Whether values may be set and changes undone (`profile.edit`). */
  canEdit: boolean;
  spaceId: string | null;
  sceneId: number;
  onClose: () => void;
  onDefineFields: () => void;
  /** Chat history showing this customer's conversations. */
  conversationsHref: (customer: ProfileCustomer) => string;
}

type Tab = 'profile' | 'history' | 'behaviour' | 'satisfaction' | 'activation';

/** One customer's profile beside the list: every field, edited in place, and the history of changes. */
export function CustomerDrawer({ customerId, ...props }: Props) {
  const { t } = useTranslation();
  const narrow = !Grid.useBreakpoint().md;
  // Opened from a report there is no list row: the header follows the profile's own query (not fetched here).
  const loaded = useQuery({
    queryKey: queryKeys.profile.customer(props.spaceId, props.sceneId, customerId ?? ''),
    queryFn: () => api(profileRoutes.customerGet, { id: customerId ?? '' }),
    enabled: false,
  });
  const shown = props.initial ?? loaded.data;
  return (
    <Drawer
      open={customerId !== null}
      onClose={props.onClose}
      size={narrow ? '100%' : 560}
      destroyOnHidden
      closable={{ placement: 'end' }}
      title={
        shown ? (
          <Flex gap={10} align="center" style={{ minWidth: 0 }}>
            <Avatar size={36} src={shown.avatar_url ?? undefined} icon={<UserOutlined />} style={{ flex: 'none' }} />
            <Typography.Text strong ellipsis style={{ fontSize: 16 }} data-testid="profile-customer-name">
              {shown.name || t('userProfile.customer.unnamed')}
            </Typography.Text>
          </Flex>
        ) : null
      }
      styles={{ body: { paddingTop: 12 } }}
      data-testid="profile-drawer"
    >
      {customerId ? <CustomerProfile key={customerId} customerId={customerId} {...props} /> : null}
    </Drawer>
  );
}

function CustomerProfile({
  customerId,
  initial,
  fields,
  canDefine,
  canEdit,
  spaceId,
  sceneId,
  onDefineFields,
  conversationsHref,
}: Omit<Props, 'customerId' | 'onClose'> & { customerId: string }) {
  const { t } = useTranslation();
  const customer = useCustomer(spaceId, sceneId, customerId, initial);
  const [tab, setTab] = useState<Tab>('profile');
  const [historyField, setHistoryField] = useState('');
  const data = customer.data;

  if (customer.isError && !data) {
    return (
      <Alert type="error" showIcon title={t('userProfile.customer.loadFailed')} description={customer.error.message} />
    );
  }
  if (!data) return null;
  const values = new Map(data.values.map((value) => [value.field_id, value]));

  const profile =
    fields.length === 0 ? (
      <Empty description={t('userProfile.customer.noFields')} data-testid="profile-no-fields">
        {canDefine ? (
          <Button type="primary" onClick={onDefineFields}>
            {t('userProfile.fields.define')}
          </Button>
        ) : null}
      </Empty>
    ) : (
      <div data-testid="profile-values">
        {fields.map((field) => (
          <FieldValueRow
            key={field.id}
            field={field}
            value={values.get(field.id)}
            customerId={data.id}
            canEdit={canEdit}
            spaceId={spaceId}
            sceneId={sceneId}
            onHistory={() => {
              setHistoryField(field.id);
              setTab('history');
            }}
          />
        ))}
      </div>
    );

  return (
    <div data-testid="profile-customer" data-name={data.name}>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary" copyable={{ text: data.source_id }} style={{ fontSize: 12 }}>
          {t('userProfile.customer.sourceId', { id: data.source_id })}
        </Typography.Text>
        <Flex gap={8} wrap>
          {data.conversation_count > 0 ? (
            <RouteButton
              href={conversationsHref(data)}
              icon={<MessageOutlined />}
              data-testid="profile-customer-conversations"
            >
              {t('userProfile.customer.viewConversations')}
            </RouteButton>
          ) : null}
          {canEdit && fields.some((field) => field.ai_extract) ? (
            <ExtractButton customerId={data.id} spaceId={spaceId} sceneId={sceneId} />
          ) : null}
        </Flex>
      </Flex>
      {fields.some((field) => field.ai_extract) ? (
        <Flex justify="flex-end" style={{ marginTop: -4, marginBottom: 8 }}>
          <ExtractStatus customerId={data.id} spaceId={spaceId} sceneId={sceneId} />
        </Flex>
      ) : null}
      <Descriptions
        size="small"
        column={2}
        items={[
          {
            key: 'active',
            label: t('userProfile.list.lastActive'),
            children: data.last_active_at ? <RelativeTime iso={data.last_active_at} /> : t('userProfile.list.never'),
          },
          {
            key: 'first',
            label: t('userProfile.customer.firstSeen'),
            children: <RelativeTime iso={data.first_seen_at} />,
          },
          { key: 'conversations', label: t('userProfile.list.conversations'), children: data.conversation_count },
          { key: 'messages', label: t('userProfile.list.messages'), children: data.message_count },
        ]}
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key as Tab);
          if (key === 'history') setHistoryField('');
        }}
        items={[
          { key: 'profile', label: t('userProfile.customer.profileTab'), children: profile },
          {
            key: 'history',
            label: t('userProfile.customer.historyTab'),
            children: (
              <HistoryTimeline
                customerId={data.id}
                fields={fields}
                fieldId={historyField}
                onFieldChange={setHistoryField}
                canEdit={canEdit}
                spaceId={spaceId}
                sceneId={sceneId}
              />
            ),
          },
          {
            key: 'behaviour',
            label: t('userProfile.behaviour.tab'),
            children: <BehaviourTimeline customerId={data.id} spaceId={spaceId} sceneId={sceneId} />,
          },
          {
            key: 'satisfaction',
            label: t('userProfile.satisfaction.tab'),
            children: <SatisfactionRatings customerId={data.id} spaceId={spaceId} sceneId={sceneId} />,
          },
          {
            key: 'activation',
            label: <span data-testid="customer-activation-tab">{t('userProfile.activation.customerTab')}</span>,
            children: <ActivationCustomerSends customerId={data.id} spaceId={spaceId} sceneId={sceneId} />,
          },
        ]}
        data-testid="profile-tabs"
      />
    </div>
  );
}
