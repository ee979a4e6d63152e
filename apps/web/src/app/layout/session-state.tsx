import { LockOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import type { SessionStatus } from '../use-session.ts';

interface Props {
  status: Exclude<SessionStatus, 'ready'>;
  error: unknown;
  retry: () => void;
}

/** What the content area shows until the session is ready. */
export function SessionState({ status, error, retry }: Props) {
  const { t } = useTranslation();
  if (status === 'loading') {
    return (
      <Card data-testid="session-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (status === 'error') {
    return (
      <Result
        data-testid="session-error"
        status="warning"
        title={t('layout.sessionErrorTitle')}
        subTitle={errorText(error, currentLocale())}
        extra={
          <Button type="primary" onClick={retry}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Empty
      style={{ marginTop: '20vh' }}
      image={<LockOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
      description={t('layout.signInToContinue')}
    />
  );
}
