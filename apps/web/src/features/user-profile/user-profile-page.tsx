import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { UserProfileView } from './user-profile-view.tsx';

/** /user-profile — the customers' profiles of the customer-service scenes, inside the app. */
export function UserProfilePage() {
  const { t } = useTranslation();
  return (
    <UserProfileView title={<PageHeader title={t('routes.userProfile')} subtitle={t('pageIntro.userProfile')} />} />
  );
}
