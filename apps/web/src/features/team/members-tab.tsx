import { LogoutOutlined, SearchOutlined } from '@ant-design/icons';
import { grantOf, type Member, type SpaceSummary, type TeamAction } from '@athena/contract';
import { Alert, Button, Empty, Flex, Input, Table, type TableProps, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { RoleTag } from '../../shared/ui/role-tag.tsx';
import { UserCell } from '../../shared/ui/user-cell.tsx';
import { MemberActions, useLeaveTeam } from './member-actions.tsx';
import { PAGE_SIZE, useMembers } from './team-queries.ts';

const MANAGING: TeamAction[] = ['member.change_role', 'member.remove', 'team.transfer'];

/** Members of the current team: search, server pagination, and the actions my role allows. */
export function MembersTab({ team }: { team: SpaceSummary }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const keyword = useDebouncedValue(search.trim(), 300);
  const members = useMembers(team.id, keyword, page);
  const leave = useLeaveTeam();
  const total = members.data?.total;

  // The header's member count comes from space/get; when the full list says otherwise (someone
  // joined or left meanwhile), refresh it so the page never disagrees with itself.
  useEffect(() => {
    if (!keyword && total !== undefined && total !== team.member_count) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.space.detail(team.id) });
    }
  }, [keyword, total, team.member_count, team.id]);

  const columns: TableProps<Member>['columns'] = [
    {
      key: 'member',
      title: t('team.members.columns.member'),
      render: (_, member) => (
        <UserCell
          nickname={member.nickname}
          avatarUrl={member.avatar_url}
          extra={
            member.is_me ? (
              <Tag color="processing" data-testid="member-me" style={{ marginInlineEnd: 0 }}>
                {t('team.members.me')}
              </Tag>
            ) : null
          }
        />
      ),
    },
    {
      key: 'phone',
      title: t('team.members.columns.phone'),
      render: (_, member) =>
        member.phone_masked ?? <Typography.Text type="secondary">{t('team.members.noPhone')}</Typography.Text>,
    },
    {
      key: 'role',
      title: t('team.members.columns.role'),
      render: (_, member) => <RoleTag role={member.role} testId="member-role" />,
    },
    {
      key: 'joined',
      title: t('team.members.columns.joined'),
      render: (_, member) => <RelativeTime iso={member.joined_at} testId="member-joined" />,
    },
  ];
  // A plain member can act on nobody: no empty "Actions" column for them.
  if (MANAGING.some((action) => grantOf(team.role, action) !== 'none')) {
    columns.push({
      key: 'actions',
      title: t('team.members.columns.actions'),
      align: 'right',
      render: (_, member) => <MemberActions member={member} myRole={team.role} spaceId={team.id} />,
    });
  }

  return (
    <Flex vertical gap={16} data-testid="members-tab">
      <Flex wrap justify="space-between" align="center" gap={12}>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('team.members.search')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          style={{ width: 320, maxWidth: '100%' }}
          data-testid="members-search"
        />
        <Button icon={<LogoutOutlined />} onClick={leave} data-testid="member-leave">
          {t('team.members.leave')}
        </Button>
      </Flex>
      {members.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="members-error"
          title={t('team.members.loadFailed')}
          description={errorText(members.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void members.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      <Table<Member>
        data-testid="members-table"
        rowKey="user_id"
        columns={columns}
        dataSource={members.data?.items ?? []}
        loading={members.isFetching}
        scroll={{ x: 'max-content' }}
        onRow={(member) =>
          dataAttrs({ 'data-testid': `member-row-${member.user_id}`, 'data-nickname': member.nickname })
        }
        locale={{
          emptyText: members.isPending ? (
            ' '
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={keyword ? t('team.members.emptySearch', { keyword }) : t('team.members.empty')}
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: members.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: false,
          showTotal: (total) => t(total === 1 ? 'team.members.totalOne' : 'team.members.total', { count: total }),
          onChange: setPage,
        }}
      />
    </Flex>
  );
}
