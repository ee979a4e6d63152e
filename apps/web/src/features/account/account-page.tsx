import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { ProfileCard } from './profile-card.tsx';
import { SecurityCard } from './security-card.tsx';
import { SessionsCard } from './sessions-card.tsx';

/** /account: profile, sign-in methods and real-name verification, active sessions. */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16} data-testid="page-account">
      <PageHeader title={t('routes.account')} subtitle={t('pageIntro.account')} />
      <ProfileCard />
      <SecurityCard />
      <SessionsCard />
    </Flex>
  );
}
