import { ERRORS } from '@athena/contract';
import { Alert, Button, Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

export const isNotFound = (error: unknown) => error instanceof ApiError && error.code === ERRORS.NOT_FOUND.code;

/**
 * A page whose main thing could not be loaded: "does not exist" (a deleted base, a foreign id —
 * the server answers both the same) with a way back, or the error with Try again.
 */
export function LoadFailed({
  error,
  title,
  missingText,
  backLabel,
  onBack,
  onRetry,
  testId,
}: {
  error: unknown;
  title: string;
  missingText: string;
  backLabel: string;
  onBack: () => void;
  onRetry: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (isNotFound(error)) {
    return (
      <Card data-testid={`${testId}-not-found`}>
        <Empty description={missingText}>
          <Button type="primary" onClick={onBack}>
            {backLabel}
          </Button>
        </Empty>
      </Card>
    );
  }
  return (
    <Alert
      type="error"
      showIcon
      data-testid={`${testId}-error`}
      title={title}
      description={errorText(error, currentLocale())}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
