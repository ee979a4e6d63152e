import { AuditOutlined, LinkOutlined, TeamOutlined } from '@ant-design/icons';
import { can } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Skeleton, Tabs } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useCurrentSpace } from '../../shared/hooks/use-current-space.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { AuditTab } from './audit-tab.tsx';
import { DissolveTeam } from './dissolve-team.tsx';
import { InvitesTab } from './invites-tab.tsx';
import { MembersTab } from './members-tab.tsx';
import { PersonalSpaceNote, TeamOverview } from './team-overview.tsx';

type TabKey = 'members' | 'invites' | 'audit';

/**
 * /team-center: the current space, its members, invite links and audit log. What shows follows
 * the contract's permission table for my role; the tab is kept in the URL (?tab=) so a reload or a
 * shared link opens the same view.
 */
export function TeamCenterPage() {
  const { t } = useTranslation();
  const team = useUserStore((s) => s.team);
  const space = useCurrentSpace();
  const [searchParams, setSearchParams] = useSearchParams();
  const spaceId = team?.id;

  // Role, name and balance may have changed since the dashboard cached them (someone promoted
  // me, renamed the team…): entering the page asks again.
  useEffect(() => {
    if (spaceId) void queryClient.invalidateQueries({ queryKey: queryKeys.space.detail(spaceId) });
  }, [spaceId]);

  const heading = <PageHeader title={t('routes.teamCenter')} subtitle={t('pageIntro.teamCenter')} />;

  if (!team) {
    return (
      <div data-testid="page-teamCenter">
        {heading}
        <Card>
          {space.isPending ? (
            <Skeleton active data-testid="team-loading" />
          ) : (
            <Empty data-testid="team-no-space" description={t('dashboard.noSpace')} />
          )}
        </Card>
      </div>
    );
  }

  const mayInvite = !team.personal && can(team.role, 'member.invite');
  const mayAudit = !team.personal && can(team.role, 'team.audit');
  const tabs = [
    {
      key: 'members' as const,
      icon: <TeamOutlined />,
      label: <span data-testid="team-tab-members">{t('team.tabs.members')}</span>,
      children: <MembersTab team={team} />,
    },
    ...(mayInvite
      ? [
          {
            key: 'invites' as const,
            icon: <LinkOutlined />,
            label: <span data-testid="team-tab-invites">{t('team.tabs.invites')}</span>,
            children: <InvitesTab team={team} />,
          },
        ]
      : []),
    ...(mayAudit
      ? [
          {
            key: 'audit' as const,
            icon: <AuditOutlined />,
            label: <span data-testid="team-tab-audit">{t('team.tabs.audit')}</span>,
            children: <AuditTab team={team} />,
          },
        ]
      : []),
  ];
  const requested = searchParams.get('tab') as TabKey | null;
  const active = tabs.some((tab) => tab.key === requested) ? (requested as TabKey) : 'members';

  return (
    <Flex vertical gap={16} data-testid="page-teamCenter">
      {heading}
      {space.isError ? (
        <Alert
          type="warning"
          showIcon
          data-testid="team-error"
          title={t('team.loadFailed')}
          description={errorText(space.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void space.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      <TeamOverview team={team} />
      {team.personal ? (
        <PersonalSpaceNote />
      ) : (
        <>
          <Card styles={{ body: { paddingTop: 4 } }}>
            <Tabs
              data-testid="team-tabs"
              activeKey={active}
              onChange={(key) => setSearchParams(key === 'members' ? {} : { tab: key }, { replace: true })}
              items={tabs}
              destroyOnHidden
            />
          </Card>
          {can(team.role, 'team.dissolve') ? <DissolveTeam team={team} /> : null}
        </>
      )}
    </Flex>
  );
}
