import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { UserProfileView } from './user-profile-view.tsx';

/** /user-profile — the customers' profiles of the customer-service scenes, inside the app. */
export function UserProfilePage() {
  const { t } = useTranslation();
  return (
    <UserProfileView
      title={
        <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
          {t('routes.userProfile')}
        </Typography.Title>
      }
    />
  );
}
