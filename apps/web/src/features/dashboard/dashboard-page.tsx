import { ClockCircleOutlined, MobileOutlined, TeamOutlined, WalletOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Flex, Row, Skeleton, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useCurrentSpace } from '../../shared/hooks/use-current-space.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { useSpaceName } from '../../shared/hooks/use-space-name.ts';
import { RoleTag } from '../../shared/ui/role-tag.tsx';
import { StatCard } from '../../shared/ui/stat-card.tsx';
import { useUserStore } from '../../stores/user-store.ts';

/** The dashboard: who I am, where I work, my role, the balance and the team size — all real data. */
export function DashboardPage() {
  const { t } = useTranslation();
  const spaceName = useSpaceName();
  const user = useUserStore((s) => s.userinfo);
  const team = useUserStore((s) => s.team);
  const space = useCurrentSpace();
  const now = useNow();
  const locale = currentLocale();

  if (!user) return <Skeleton active data-testid="dashboard-loading" />;
  const created = dayjs(user.created_at);

  return (
    <Flex vertical gap={16} data-testid="dashboard">
      <Card>
        <Flex vertical gap={4}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('dashboard.greeting')}
            <span data-testid="dashboard-nickname">{user.nickname}</span>
          </Typography.Title>
          <Flex wrap align="center" gap={16}>
            <Typography.Text type="secondary">
              <ClockCircleOutlined /> {t('dashboard.memberSince')}{' '}
              <Tooltip title={created.format('YYYY-MM-DD HH:mm')}>
                <span data-testid="dashboard-created-at" data-iso={user.created_at}>
                  {created.from(now)}
                </span>
              </Tooltip>
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="dashboard-phone">
              <MobileOutlined /> {user.phone_masked ?? t('dashboard.noPhone')}
            </Typography.Text>
            <Tag
              icon={<WechatOutlined />}
              color={user.has_wechat ? 'success' : 'default'}
              data-testid="dashboard-wechat"
            >
              {user.has_wechat ? t('dashboard.wechatLinked') : t('dashboard.wechatNotLinked')}
            </Tag>
          </Flex>
        </Flex>
      </Card>

      {!team ? (
        <Card>
          <Empty data-testid="dashboard-no-space" description={t('dashboard.noSpace')} />
        </Card>
      ) : (
        <>
          {space.isError ? (
            <Alert
              type="warning"
              showIcon
              data-testid="dashboard-error"
              title={t('dashboard.refreshFailed')}
              description={errorText(space.error, locale)}
              action={
                <Button size="small" onClick={() => void space.refetch()}>
                  {t('common.retry')}
                </Button>
              }
            />
          ) : null}
          <Row gutter={[16, 16]}>
            <Col xs={24} md={12} xl={8}>
              <Card style={{ height: '100%' }}>
                <Typography.Text type="secondary">{t('dashboard.currentSpace')}</Typography.Text>
                <Flex align="center" gap={8} wrap style={{ marginTop: 8 }}>
                  <Typography.Title level={4} style={{ margin: 0 }} data-testid="dashboard-space-name">
                    {spaceName(team)}
                  </Typography.Title>
                  {team.personal ? <Typography.Text type="secondary">({t('header.personal')})</Typography.Text> : null}
                </Flex>
                <Flex align="center" gap={8} style={{ marginTop: 12 }}>
                  <Typography.Text type="secondary">{t('dashboard.myRole')}</Typography.Text>
                  <RoleTag role={team.role} testId="dashboard-role" />
                </Flex>
              </Card>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <StatCard
                title={t('dashboard.balance')}
                loading={space.isPending}
                prefix={<WalletOutlined />}
                valueRender={() => <span data-testid="dashboard-balance">{formatFen(team.balance, locale)}</span>}
              />
            </Col>
            <Col xs={24} md={12} xl={8}>
              <StatCard
                title={t('dashboard.members')}
                loading={space.isPending}
                prefix={<TeamOutlined />}
                valueRender={() => <span data-testid="dashboard-member-count">{team.member_count}</span>}
              />
            </Col>
          </Row>
        </>
      )}
    </Flex>
  );
}
