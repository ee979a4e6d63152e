import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

/** A failed read, said in place with a retry (reads never toast). */
export function LoadError({ error, onRetry, testId }: { error: unknown; onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid={testId}
      title={t('billing.loadFailedShort')}
      description={errorText(error, currentLocale())}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
