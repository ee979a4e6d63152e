import { MessageOutlined } from '@ant-design/icons';
import type { ProfileCustomer, ProfileField } from '@athena/contract';
import { Flex, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { UserCell } from '../../shared/ui/user-cell.tsx';
import { RouteTextLink } from '../chat-history/route-link.tsx';
import type { TotalKind } from './profile-filters.ts';
import { CUSTOMER_PAGE_SIZE } from './profile-queries.ts';

/** How many values a row shows as tags; the rest are in the profile. */
const TAGS_SHOWN = 3;

const TOTAL_TEXT = {
  counting: 'userProfile.search.totalCounting',
  estimated: 'userProfile.search.totalAbout',
  tooMany: 'userProfile.search.totalTooMany',
} as const;

interface Props {
  items: ProfileCustomer[];
  total: number;
  /**
   * `total` is a count, or (more than 5 000 match) the server's estimate while the exact count is
   * on its way, or one it could not count quickly.
   */
  totalKind?: TotalKind;
  page: number;
  loading: boolean;
  fields: readonly ProfileField[];
  activeId: string | null;
  empty: React.ReactNode;
  onPage: (page: number) => void;
  onOpen: (customer: ProfileCustomer) => void;
  /** Chat history showing this customer's conversations. */
  conversationsHref: (customer: ProfileCustomer) => string;
}

/** The customers of the scene, most recently active first, a page at a time. */
export function CustomerTable({
  items,
  total,
  totalKind = 'exact',
  page,
  loading,
  fields,
  activeId,
  empty,
  onPage,
  onOpen,
  conversationsHref,
}: Props) {
  const { t } = useTranslation();
  const order = new Map(fields.map((field, index) => [field.id, index]));
  const names = new Map(fields.map((field) => [field.id, field.name]));

  const columns: ColumnsType<ProfileCustomer> = [
    {
      key: 'customer',
      title: t('userProfile.list.customer'),
      render: (_, customer) => (
        <div style={{ minWidth: 0 }}>
          <UserCell nickname={customer.name || t('userProfile.customer.unnamed')} avatarUrl={customer.avatar_url} />
          <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 36 }} ellipsis>
            {customer.source_id}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'values',
      title: t('userProfile.list.values'),
      render: (_, customer) => {
        const shown = customer.values
          .filter((value) => order.has(value.field_id) && value.value !== '')
          .sort((a, b) => (order.get(a.field_id) ?? 0) - (order.get(b.field_id) ?? 0));
        if (shown.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
        return (
          <Flex gap={4} wrap data-testid="profile-row-tags">
            {shown.slice(0, TAGS_SHOWN).map((value) => (
              <Tag key={value.field_id} bordered={false} style={{ marginInlineEnd: 0, maxWidth: 220 }}>
                <Typography.Text style={{ fontSize: 12 }} ellipsis>
                  {t('userProfile.list.tag', { field: names.get(value.field_id), value: value.value })}
                </Typography.Text>
              </Tag>
            ))}
            {shown.length > TAGS_SHOWN ? (
              <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
                +{shown.length - TAGS_SHOWN}
              </Tag>
            ) : null}
          </Flex>
        );
      },
    },
    {
      key: 'active',
      title: t('userProfile.list.lastActive'),
      width: 130,
      render: (_, customer) =>
        customer.last_active_at ? (
          <RelativeTime iso={customer.last_active_at} />
        ) : (
          <Typography.Text type="secondary">{t('userProfile.list.never')}</Typography.Text>
        ),
    },
    {
      key: 'conversations',
      title: t('userProfile.list.conversations'),
      width: 90,
      align: 'right',
      render: (_, customer) => customer.conversation_count,
    },
    {
      key: 'messages',
      title: t('userProfile.list.messages'),
      width: 90,
      align: 'right',
      render: (_, customer) => customer.message_count,
    },
    {
      key: 'open',
      width: 130,
      // A customer met only in others' group chats has no conversation of their own to show.
      render: (_, customer) =>
        customer.conversation_count > 0 ? (
          <RouteTextLink href={conversationsHref(customer)} data-testid="profile-row-conversations">
            <MessageOutlined /> {t('userProfile.customer.viewConversations')}
          </RouteTextLink>
        ) : null,
    },
  ];

  return (
    <Table<ProfileCustomer>
      rowKey="id"
      columns={columns}
      dataSource={items}
      loading={loading}
      size="middle"
      scroll={{ x: 720 }}
      locale={{ emptyText: empty }}
      rowClassName={(customer) => (customer.id === activeId ? 'ant-table-row-selected' : '')}
      onRow={(customer) => ({
        onClick: () => onOpen(customer),
        style: { cursor: 'pointer' },
        'data-testid': 'profile-customer-row',
        'data-name': customer.name,
      })}
      pagination={{
        current: page,
        pageSize: CUSTOMER_PAGE_SIZE,
        total,
        showSizeChanger: false,
        showTotal: (count) =>
          totalKind === 'exact'
            ? t('userProfile.list.total', { count })
            : t(TOTAL_TEXT[totalKind], { count, formatted: count.toLocaleString() }),
        onChange: onPage,
      }}
      data-testid="profile-customers"
    />
  );
}
