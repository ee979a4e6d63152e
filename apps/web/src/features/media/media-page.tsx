import { PlusOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { MediaGroup, MediaLibrary } from '@athena/contract';
import { Button, Card, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import type { GroupFilter } from '../../shared/ui/group-side-list.tsx';
import { UNGROUPED } from '../../shared/ui/group-side-list.tsx';
import {
  CardGridSkeleton,
  GroupNotFound,
  ListLoadError,
  ListPageHead,
  SideListLayout,
} from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { LibraryCard } from './library-card.tsx';
import { useLibraryCommands } from './library-commands.ts';
import { LibraryFormModal } from './library-form-modal.tsx';
import { LibraryView } from './library-view.tsx';
import { MediaGroupList, MediaGroupModal } from './media-groups.tsx';
import { useLibraries, useMediaGroups } from './media-queries.ts';
import { UsageBar } from './usage-bar.tsx';

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 16 } as const;

/** /medialib: the libraries (or, with `?library=<id>`, one library's files). */
export function MediaPage() {
  const [search] = useSearchParams();
  const libraryId = search.get('library');
  // Keyed by the library, so another library starts with its own filters.
  return libraryId ? <LibraryView key={libraryId} libraryId={libraryId} /> : <LibrariesView filter="" />;
}

/** /medialib/group/:groupId — the libraries of one group (or `ungrouped`). */
export function MediaGroupPage() {
  const { groupId = '' } = useParams();
  return <LibrariesView filter={groupId} />;
}

function LibrariesView({ filter }: { filter: GroupFilter }) {
  const { t } = useTranslation();
  const go = useGo();
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  const userId = useUserStore((s) => s.userinfo?.id ?? null);
  const groups = useMediaGroups(spaceId);
  const list = useLibraries(spaceId, filter);
  const everything = useLibraries(spaceId, '');
  const commands = useLibraryCommands(spaceId);
  const form = useModalSession<MediaLibrary | null>(null);
  const groupForm = useModalSession<MediaGroup | null>(null);

  const groupItems = groups.data?.items ?? [];
  const group = groupItems.find((g) => g.id === filter) ?? null;
  const groupName = (id: string | null) => groupItems.find((g) => g.id === id)?.name ?? null;
  const all = everything.data;
  const totals = all ? { all: all.length, ungrouped: all.filter((l) => l.group_id === null).length } : null;
  const select = (next: GroupFilter) => (next ? go('mediaGroup', { params: { groupId: next } }) : go('medialib'));
  const open = (id: string) => go('medialib', { query: { library: id } });
  const items = list.data ?? [];
  const unknownGroup = filter !== '' && filter !== UNGROUPED && groups.isSuccess && !group;
  const createButton = spaceId ? (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => form.show(null)} data-testid="library-create">
      {t('media.library.create')}
    </Button>
  ) : null;

  let body: React.ReactNode;
  if (!spaceId) {
    body = (
      <Card>
        <Empty description={t('media.noSpace')} />
      </Card>
    );
  } else if (unknownGroup) {
    body = (
      <GroupNotFound
        text={t('media.groups.notFound')}
        backLabel={t('media.backToLibraries')}
        onBack={() => go('medialib')}
        testId="media-group-not-found"
      />
    );
  } else if (list.isPending) {
    body = <CardGridSkeleton grid={GRID} testId="media-loading" />;
  } else if (list.isError && items.length === 0) {
    body = (
      <ListLoadError
        title={t('media.library.loadFailed')}
        error={list.error}
        onRetry={() => void list.refetch()}
        testId="media-error"
      />
    );
  } else if (items.length === 0) {
    body = (
      <Card>
        <Empty
          image={<VideoCameraOutlined style={{ fontSize: 48, opacity: 0.35 }} />}
          data-testid="media-empty"
          description={filter ? t('media.groups.emptyGroup') : t('media.library.empty')}
        >
          {createButton}
        </Empty>
      </Card>
    );
  } else {
    body = (
      <div style={GRID} data-testid="library-grid">
        {items.map((library) => (
          <LibraryCard
            key={library.id}
            library={library}
            groupName={filter === library.group_id ? null : groupName(library.group_id)}
            creator={library.created_by === userId ? t('media.byYou') : t('media.byMember')}
            busy={commands.busyId === library.id}
            onOpen={() => open(library.id)}
            onEdit={() => form.show(library)}
            onDelete={() => commands.remove(library)}
          />
        ))}
      </div>
    );
  }

  const title =
    filter === '' ? t('routes.medialib') : filter === UNGROUPED ? t('media.groups.ungrouped') : (group?.name ?? '');
  return (
    <Flex vertical gap={16} data-testid={filter ? 'page-mediaGroup' : 'page-medialib'}>
      <ListPageHead title={title} intro={t('media.intro')} tools={createButton} />
      {spaceId ? <UsageBar spaceId={spaceId} /> : null}
      <SideListLayout
        side={
          spaceId ? (
            <MediaGroupList
              groups={groupItems}
              loading={groups.isPending}
              selected={filter}
              totals={totals}
              onSelect={select}
              onCreate={() => groupForm.show(null)}
              onRename={(g) => groupForm.show(g)}
              onDelete={async (g) => {
                if ((await commands.removeGroup(g)) && filter === g.id) go('medialib', { replace: true });
              }}
            />
          ) : null
        }
      >
        {body}
      </SideListLayout>
      {spaceId ? (
        <>
          <LibraryFormModal
            key={`library-${form.key}`}
            open={form.open}
            spaceId={spaceId}
            library={form.value}
            groupId={filter && filter !== UNGROUPED ? filter : null}
            onClose={form.close}
            onSaved={(saved) => {
              if (!form.value) open(saved.id);
            }}
          />
          <MediaGroupModal
            key={`group-${groupForm.key}`}
            open={groupForm.open}
            spaceId={spaceId}
            group={groupForm.value}
            onClose={groupForm.close}
          />
        </>
      ) : null}
    </Flex>
  );
}
