import { PlusOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { MediaGroup, MediaLibrary } from '@athena/contract';
import { Button, Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { type GroupFilter, groupTotals, UNGROUPED } from '../../shared/ui/group-side-list.tsx';
import { GroupedCardList } from '../../shared/ui/grouped-card-list.tsx';
import { ListPageHead, SideListLayout } from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { LibraryCard } from './library-card.tsx';
import { useLibraryCommands } from './library-commands.ts';
import { LibraryFormModal } from './library-form-modal.tsx';
import { LibraryView } from './library-view.tsx';
import { MediaGroupList, MediaGroupModal } from './media-groups.tsx';
import { useLibraries, useMediaGroups } from './media-queries.ts';
import { UsageBar } from './usage-bar.tsx';

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
  const totals = groupTotals(everything.data);
  const select = (next: GroupFilter) => (next ? go('mediaGroup', { params: { groupId: next } }) : go('medialib'));
  const open = (id: string) => go('medialib', { query: { library: id } });
  const items = list.data ?? [];
  const unknownGroup = filter !== '' && filter !== UNGROUPED && groups.isSuccess && !group;
  const createButton = spaceId ? (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => form.show(null)} data-testid="library-create">
      {t('media.library.create')}
    </Button>
  ) : null;

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
        <GroupedCardList
          hasSpace={!!spaceId}
          unknownGroup={unknownGroup}
          list={list}
          count={items.length}
          minCardWidth={260}
          texts={{
            noSpace: t('media.noSpace'),
            notFound: t('media.groups.notFound'),
            backToList: t('media.backToLibraries'),
            loadFailed: t('media.library.loadFailed'),
          }}
          testIds={{
            notFound: 'media-group-not-found',
            loading: 'media-loading',
            error: 'media-error',
            grid: 'library-grid',
          }}
          onBack={() => go('medialib')}
          empty={
            <Empty
              image={<VideoCameraOutlined style={{ fontSize: 48, opacity: 0.35 }} />}
              data-testid="media-empty"
              description={filter ? t('media.groups.emptyGroup') : t('media.library.empty')}
            >
              {createButton}
            </Empty>
          }
        >
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
        </GroupedCardList>
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
