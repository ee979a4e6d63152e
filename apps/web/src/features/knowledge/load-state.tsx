import { ERRORS } from '@athena/contract';
import { Alert, Button, Card, Empty, Skeleton } from 'antd';
import type { ReactElement } from 'react';
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

/**
 * A page about one knowledge base until the base is there: a skeleton while it loads, LoadFailed
 * (back to the list) when it cannot be loaded. `view` is what to show instead of the page, if any.
 */
export function baseGate<T>(
  base: { data: T | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
  opts: {
    ready: boolean;
    testId: string;
    onBack: () => void;
    t: (key: 'knowledge.loadOneFailed' | 'knowledge.notFound' | 'knowledge.backToList') => string;
  },
): { view: ReactElement; data?: undefined } | { view: null; data: T } {
  if (base.isError) {
    return {
      view: (
        <LoadFailed
          error={base.error}
          title={opts.t('knowledge.loadOneFailed')}
          missingText={opts.t('knowledge.notFound')}
          backLabel={opts.t('knowledge.backToList')}
          onBack={opts.onBack}
          onRetry={() => void base.refetch()}
          testId={opts.testId}
        />
      ),
    };
  }
  if (base.data === undefined || !opts.ready) {
    return {
      view: (
        <Card data-testid={`${opts.testId}-loading`}>
          <Skeleton active paragraph={{ rows: 6 }} />
        </Card>
      ),
    };
  }
  return { view: null, data: base.data };
}
