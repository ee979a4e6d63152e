import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ProfileCard } from './profile-card.tsx';
import { SecurityCard } from './security-card.tsx';
import { SessionsCard } from './sessions-card.tsx';

/** /account: profile, sign-in methods and real-name verification, active sessions. */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16} data-testid="page-account" style={{ maxWidth: 960 }}>
      <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
        {t('routes.account')}
      </Typography.Title>
      <ProfileCard />
      <SecurityCard />
      <SessionsCard />
    </Flex>
  );
}
