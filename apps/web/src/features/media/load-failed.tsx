import { ERRORS } from '@athena/contract';
import { Button, Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';

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
  return <ListLoadError title={t('media.loadOneFailed')} error={error} onRetry={onRetry} testId="media-load-error" />;
}
