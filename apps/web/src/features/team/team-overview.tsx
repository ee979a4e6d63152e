import { EditOutlined, PlusOutlined, TeamOutlined, WalletOutlined } from '@ant-design/icons';
import { can, type SpaceSummary } from '@athena/contract';
import { Avatar, Button, Card, Flex, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useSpaceName } from '../../shared/hooks/use-space-name.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { RoleTag } from '../../shared/ui/role-tag.tsx';
import { TeamNameModal } from './team-name-modal.tsx';

/** The current space at a glance — name, my role, members, balance — with create and rename. */
export function TeamOverview({ team }: { team: SpaceSummary }) {
  const { t } = useTranslation();
  const spaceName = useSpaceName();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  // Kept while the dialog closes, so its title does not flip mid-animation.
  const [mode, setMode] = useState<'create' | 'rename'>('create');
  const show = (next: 'create' | 'rename') => {
    setMode(next);
    setOpen(true);
  };
  const mayRename = !team.personal && can(team.role, 'team.rename');

  const fact = (label: string, value: React.ReactNode) => (
    <Flex vertical gap={2}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <span>{value}</span>
    </Flex>
  );

  return (
    <Card data-testid="team-overview">
      <Flex wrap justify="space-between" align="center" gap={16}>
        <Flex align="center" gap={16} style={{ minWidth: 0 }}>
          <Avatar
            shape="square"
            size={56}
            style={{ background: token.colorPrimary, fontSize: 24, flex: 'none' }}
            icon={team.personal ? undefined : <TeamOutlined />}
          >
            {team.personal ? team.name.slice(0, 1) : null}
          </Avatar>
          <Flex vertical gap={8} style={{ minWidth: 0 }}>
            <Flex align="center" gap={8} wrap>
              <Typography.Title level={4} style={{ margin: 0 }} ellipsis data-testid="team-name">
                {spaceName(team)}
              </Typography.Title>
              {team.personal ? (
                <Tag data-testid="team-personal-tag" style={{ marginInlineEnd: 0 }}>
                  {t('team.overview.personal')}
                </Tag>
              ) : null}
            </Flex>
            <Flex wrap gap={24}>
              {fact(t('team.overview.myRole'), <RoleTag role={team.role} testId="team-role" />)}
              {fact(
                t('team.overview.members'),
                <span data-testid="team-member-count">
                  <TeamOutlined /> {team.member_count}
                </span>,
              )}
              {fact(
                t('team.overview.balance'),
                <span data-testid="team-balance">
                  <WalletOutlined /> {formatFen(team.balance, currentLocale())}
                </span>,
              )}
              {fact(t('team.overview.created'), <RelativeTime iso={team.created_at} />)}
            </Flex>
          </Flex>
        </Flex>
        <Flex gap={8} wrap>
          {mayRename ? (
            <Button icon={<EditOutlined />} onClick={() => show('rename')} data-testid="team-rename">
              {t('team.overview.rename')}
            </Button>
          ) : null}
          <Button icon={<PlusOutlined />} onClick={() => show('create')} data-testid="team-create">
            {t('team.overview.createTeam')}
          </Button>
        </Flex>
      </Flex>
      <TeamNameModal mode={mode} open={open} initialName={team.name} onClose={() => setOpen(false)} />
    </Card>
  );
}

/** What a personal space shows instead of members and invites: why, and the way to a team. */
export function PersonalSpaceNote() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Card data-testid="team-personal-note">
      <Flex vertical align="center" gap={12} style={{ textAlign: 'center', padding: '24px 0' }}>
        <TeamOutlined style={{ fontSize: 40, opacity: 0.35 }} />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('team.personal.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ maxWidth: 560, margin: 0 }}>
          {t('team.personal.text')}
        </Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="team-personal-create">
          {t('team.personal.create')}
        </Button>
      </Flex>
      <TeamNameModal mode="create" open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
