import { Card, Empty, Flex } from 'antd';
import type { ReactNode } from 'react';
import { CardGridSkeleton, GroupNotFound, ListLoadError } from './list-page-parts.tsx';

/** The states a grouped card list can be in; a TanStack query result fits as it is. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export interface GroupedCardListProps {
  /** False while no space is chosen: there is nothing to list. */
  hasSpace: boolean;
  /** The address names a group that is not there (deleted, or another space's). */
  unknownGroup: boolean;
  list: ListQuery;
  /** How many cards are loaded; none shows `empty`. */
  count: number;
  /** The narrowest a card gets before the grid drops a column, in pixels. */
  minCardWidth: number;
  texts: { noSpace: string; notFound: string; backToList: string; loadFailed: string };
  testIds: { noSpace?: string; notFound: string; loading: string; error: string; grid: string };
  onBack: () => void;
  /** What the page says when there is nothing to show; it is put in a card. */
  empty: ReactNode;
  /** Under the grid (a pagination); when given, grid and footer are stacked together. */
  footer?: ReactNode;
  /** The cards. */
  children: ReactNode;
}

/**
 * The body of a list page whose cards sit in groups (media libraries, knowledge bases, workflows).
 * Those pages go through the same states in the same order — no space, unknown group, loading,
 * failed with nothing loaded, empty, the cards — so the order lives here once and only what differs
 * comes in from the page.
 */
export function GroupedCardList(props: GroupedCardListProps) {
  const { list, texts, testIds } = props;
  const grid = {
    display: 'grid',
    gridTemplateColumns: `repeat(auto-fill, minmax(${props.minCardWidth}px, 1fr))`,
    gap: 16,
  } as const;

  if (!props.hasSpace)
    return (
      <Card>
        <Empty data-testid={testIds.noSpace} description={texts.noSpace} />
      </Card>
    );
  if (props.unknownGroup)
    return (
      <GroupNotFound
        text={texts.notFound}
        backLabel={texts.backToList}
        onBack={props.onBack}
        testId={testIds.notFound}
      />
    );
  if (list.isPending) return <CardGridSkeleton grid={grid} testId={testIds.loading} />;
  if (list.isError && props.count === 0)
    return (
      <ListLoadError
        title={texts.loadFailed}
        error={list.error}
        onRetry={() => void list.refetch()}
        testId={testIds.error}
      />
    );
  if (props.count === 0) return <Card>{props.empty}</Card>;

  const cards = (
    <div style={grid} data-testid={testIds.grid}>
      {props.children}
    </div>
  );
  if (props.footer === undefined) return cards;
  return (
    <Flex vertical gap={16}>
      {cards}
      {props.footer}
    </Flex>
  );
}
