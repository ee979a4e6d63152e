import { Alert, Button, Card, Empty, Flex, Grid, Skeleton } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { PageHeader } from './page-header.tsx';

/** A list page's head when it shows everything: the title, a line about the page and its buttons. */
export function ListPageHead({ title, intro, tools }: { title: string; intro: string; tools: ReactNode }) {
  return <PageHeader title={title} subtitle={intro} extra={tools} />;
}

/** The groups beside the list on a wide screen, above it on a narrow one; `side` null leaves them out. */
export function SideListLayout({ side, children }: { side: ReactNode; children: ReactNode }) {
  const wide = Grid.useBreakpoint().lg;
  return (
    <Flex gap={16} vertical={!wide} align="flex-start">
      {side ? <div style={{ width: wide ? 232 : '100%', flex: 'none' }}>{side}</div> : null}
      <div style={{ flex: 1, minWidth: 0, width: '100%' }}>{children}</div>
    </Flex>
  );
}

/** Three card-shaped placeholders in the list's grid while the first page loads. */
export function CardGridSkeleton({ grid, testId }: { grid: CSSProperties; testId: string }) {
  return (
    <div style={grid} data-testid={testId}>
      {[0, 1, 2].map((i) => (
        <Card key={i}>
          <Skeleton active avatar paragraph={{ rows: 3 }} />
        </Card>
      ))}
    </div>
  );
}

/** A list that could not be loaded: the server's reason and Try again. */
export function ListLoadError({
  title,
  error,
  onRetry,
  testId,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid={testId}
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

/** An address naming a group that is not there (deleted, or another space's), with the way back. */
export function GroupNotFound({
  text,
  backLabel,
  onBack,
  testId,
}: {
  text: string;
  backLabel: string;
  onBack: () => void;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <Empty description={text}>
        <Button type="primary" onClick={onBack}>
          {backLabel}
        </Button>
      </Empty>
    </Card>
  );
}
