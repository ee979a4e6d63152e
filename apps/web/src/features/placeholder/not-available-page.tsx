import { ClockCircleOutlined } from '@ant-design/icons';
import { Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROUTES, type RouteName } from '../../lib/route-table.ts';

/**
 * A page whose feature is not in this version yet: its real title and a plain statement of that,
 * never sample data.
 */
export function NotAvailablePage({ name }: { name: RouteName }) {
  const { t } = useTranslation();
  return (
    <div data-testid={`page-${name}`}>
      <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="page-title">
        {t(ROUTES[name].title)}
      </Typography.Title>
      <Card>
        <Result
          data-testid="not-available"
          icon={<ClockCircleOutlined style={{ color: '#a5b4fc' }} />}
          title={t('common.comingSoon')}
          subTitle={name === 'aiSoftware' ? t('common.comingAiSoftware') : t('common.notAvailableText')}
        />
      </Card>
    </div>
  );
}
