import { ERRORS } from '@athena/contract';
import { Alert, Button, Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

/** A library or item that could not be loaded: gone (or another team's) with the way back, or the error with Try again. */
export function LoadFailed({ error, onBack, onRetry }: { error: unknown; onBack: () => void; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && error.code === ERRORS.NOT_FOUND.code) {
    return (
      <Card data-testid="media-not-found">
        <Empty description={t('media.notFound')}>
          <Button type="primary" onClick={onBack}>
            {t('media.backToLibraries')}
          </Button>
        </Empty>
      </Card>
    );
  }
  return (
    <Alert
      type="error"
      showIcon
      data-testid="media-load-error"
      title={t('media.loadOneFailed')}
      description={errorText(error, currentLocale())}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
