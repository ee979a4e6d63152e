import { LockOutlined } from '@ant-design/icons';
import { authRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';

/**
 * The embeddable page has no main layout to wait for the session, so it waits here. The shell's
 * root already loads user/info (and shows the login modal when signed out); this only reads that
 * query's state, so nothing is fetched twice and nothing of the layout weighs on /login.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const team = useUserStore((s) => s.team);
  const session = useQuery({
    queryKey: queryKeys.session.userInfo(token),
    queryFn: () => api(authRoutes.userInfo),
    enabled: false,
  });
  if (!token) {
    return (
      <Empty
        style={{ marginTop: '20vh' }}
        image={<LockOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
        description={t('layout.signInToContinue')}
      />
    );
  }
  if (session.isError) {
    return (
      <Result
        status="warning"
        title={t('layout.sessionErrorTitle')}
        subTitle={errorText(session.error, currentLocale())}
        extra={
          <Button type="primary" onClick={() => void session.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="session-error"
      />
    );
  }
  if (!team) return <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 24 }} data-testid="session-loading" />;
  return children;
}
