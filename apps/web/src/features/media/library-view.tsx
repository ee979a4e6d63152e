import { ArrowLeftOutlined, CloudUploadOutlined, InboxOutlined } from '@ant-design/icons';
import type { MediaItem } from '@athena/contract';
import { Button, Card, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import { type DragEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { useGo } from '../../lib/navigation.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { MoveModal, useItemCommands } from './item-commands.tsx';
import { ItemGrid, ItemList } from './item-views.tsx';
import { LibraryToolbar, type SortChoice, type ToolbarState } from './library-toolbar.tsx';
import { LoadFailed } from './load-failed.tsx';
import { pendingPages } from './media-meta.ts';
import { ITEM_PAGE, useItems, useLibrary, usePreviewPoll } from './media-queries.ts';
import { enqueue } from './upload-runner.ts';

const sortOf = (choice: SortChoice) => {
  const [sort, order] = choice.split('-') as ['time' | 'name' | 'size', 'asc' | 'desc'];
  return { sort, order };
};

/** /medialib?library=<id>: one library's files (or its trash), with uploads by drop or picker. */
export function LibraryView({ libraryId }: { libraryId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const go = useGo();
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  const library = useLibrary(spaceId, libraryId);
  const [state, setState] = useState<ToolbarState>({
    trash: false,
    kind: null,
    search: '',
    sort: 'time-desc',
    layout: 'grid',
  });
  const keyword = useDebouncedValue(state.search.trim());
  const query = useMemo(
    () => ({ libraryId, kind: state.kind, keyword, trash: state.trash, ...sortOf(state.sort) }),
    [libraryId, state.kind, keyword, state.trash, state.sort],
  );
  const items = useItems(spaceId, query);
  const list = useMemo(() => items.data?.pages.flatMap((page) => page.items) ?? [], [items.data]);
  // The items on screen; those still waiting for their preview are asked about again.
  const [range, setRange] = useState<[number, number]>([0, -1]);
  const onRange = useCallback(
    (first: number, last: number) => setRange((old) => (old[0] === first && old[1] === last ? old : [first, last])),
    [],
  );
  const playing = useUserStore((s) => s.isPlayingVideo);
  const waiting = state.trash ? [] : pendingPages(list, range[0], range[1], ITEM_PAGE);
  usePreviewPoll(spaceId, query, waiting, playing);
  const commands = useItemCommands(spaceId);
  const [moving, setMoving] = useState<MediaItem | null>(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  const back = () => go('medialib');
  if (library.isError || library.isPending) {
    return library.isError ? (
      <LoadFailed error={library.error} onBack={back} onRetry={() => void library.refetch()} />
    ) : (
      <Card data-testid="library-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }

  const upload = (files: FileList | null) => {
    if (files && files.length > 0) enqueue([...files], libraryId, t('media.upload.failed'));
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!state.trash) upload(event.dataTransfer.files);
  };
  const total = items.data?.pages[0]?.total ?? 0;
  const filtered = Boolean(state.kind || keyword);
  const handlers = {
    open: (item: MediaItem) => go('mediaItem', { params: { mediaId: item.id } }),
    move: setMoving,
    trash: (item: MediaItem) => void commands.trash(item),
    restore: (item: MediaItem) => void commands.restore(item),
    purge: commands.purge,
  };
  const viewProps = {
    items: list,
    hasMore: Boolean(items.hasNextPage),
    loadMore: () => {
      if (!items.isFetchingNextPage) void items.fetchNextPage();
    },
    handlers,
    onRange,
  };

  let body: React.ReactNode;
  if (items.isPending) {
    body = (
      <Card data-testid="media-items-loading">
        <Skeleton active paragraph={{ rows: 5 }} />
      </Card>
    );
  } else if (items.isError && list.length === 0) {
    body = (
      <ListLoadError
        title={t('media.items.loadFailed')}
        error={items.error}
        onRetry={() => void items.refetch()}
        testId="media-items-error"
      />
    );
  } else if (list.length === 0) {
    const text = filtered
      ? t('media.items.noMatch')
      : state.trash
        ? t('media.items.trashEmpty')
        : t('media.items.empty');
    body = (
      <Card>
        <Empty data-testid="media-items-empty" description={text}>
          {!filtered && !state.trash ? (
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => picker.current?.click()}>
              {t('media.items.upload')}
            </Button>
          ) : null}
        </Empty>
      </Card>
    );
  } else {
    body = state.layout === 'grid' ? <ItemGrid {...viewProps} /> : <ItemList {...viewProps} />;
  }

  return (
    <Flex
      vertical
      gap={12}
      data-testid="page-library"
      data-library-id={libraryId}
      onDragOver={(event) => {
        event.preventDefault();
        if (!state.trash) setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      style={{ position: 'relative' }}
    >
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={back}
            aria-label={t('media.backToLibraries')}
            data-testid="library-back"
          />
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Title level={3} style={{ margin: 0 }} ellipsis data-testid="page-title">
              {library.data.name}
            </Typography.Title>
            <Typography.Text type="secondary" data-testid="library-summary">
              {t('media.library.counts', {
                count: library.data.item_count,
                size: formatBytes(library.data.total_bytes),
              })}
              {library.data.description ? ` · ${library.data.description}` : ''}
            </Typography.Text>
          </Flex>
        </Flex>
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          onClick={() => picker.current?.click()}
          data-testid="media-upload"
        >
          {t('media.items.upload')}
        </Button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="media-file-input"
          onChange={(event) => {
            upload(event.target.files);
            event.target.value = '';
          }}
        />
      </Flex>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <LibraryToolbar state={state} onChange={setState} />
        <Typography.Text type="secondary" data-testid="media-total">
          {state.trash ? t('media.items.trashTotal', { count: total }) : t('media.items.total', { count: total })}
        </Typography.Text>
      </Flex>
      {state.trash ? null : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <InboxOutlined /> {t('media.items.dropHint')}
        </Typography.Text>
      )}
      {body}
      {dragging ? (
        <Flex
          align="center"
          justify="center"
          data-testid="media-drop-overlay"
          style={{
            position: 'absolute',
            inset: 0,
            border: `2px dashed ${token.colorPrimary}`,
            borderRadius: 12,
            background: token.colorPrimaryBg,
            opacity: 0.92,
            pointerEvents: 'none',
            fontSize: 18,
            color: token.colorPrimary,
          }}
        >
          <CloudUploadOutlined style={{ marginInlineEnd: 8 }} /> {t('media.items.dropHere')}
        </Flex>
      ) : null}
      {spaceId ? (
        <MoveModal key={moving?.id ?? 'none'} spaceId={spaceId} item={moving} onClose={() => setMoving(null)} />
      ) : null}
    </Flex>
  );
}
