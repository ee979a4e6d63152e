import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import type { KnowledgeBase } from '@athena/contract';
import { Button, Empty, Flex, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { groupTotals } from '../../shared/ui/group-side-list.tsx';
import { GroupedCardList } from '../../shared/ui/grouped-card-list.tsx';
import { ListPageHead, SideListLayout } from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { BackTitle } from './back-title.tsx';
import { useBaseCommands } from './base-commands.ts';
import { type GroupFilter, GroupList, type KnowledgeGroup, UNGROUPED } from './group-list.tsx';
import { GroupNameModal } from './group-name-modal.tsx';
import { KnowledgeCard } from './knowledge-card.tsx';
import { KnowledgeEmpty } from './knowledge-empty.tsx';
import { KnowledgeFormModal } from './knowledge-form-modal.tsx';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { useKnowledgeGroups, useKnowledgeList } from './knowledge-queries.ts';

/** /knowledge: every base of the space, with the groups beside them. */
export function KnowledgePage() {
  return <KnowledgeListView filter="" />;
}

/** /knowledge/group/:groupId — the same list, one group (or `ungrouped`) only. */
export function KnowledgeGroupPage() {
  const { groupId = '' } = useParams();
  return <KnowledgeListView filter={groupId} />;
}

function KnowledgeListView({ filter }: { filter: GroupFilter }) {
  const { t } = useTranslation();
  const go = useGo();
  const team = useUserStore((s) => s.team);
  const spaceId = team?.id ?? null;
  const [search, setSearch] = useState('');
  const keyword = useDebouncedValue(search.trim());
  const groups = useKnowledgeGroups(spaceId);
  const list = useKnowledgeList(spaceId, filter, keyword);
  // Every base (the same query as the unfiltered page), for the All and Ungrouped counts.
  const everything = useKnowledgeList(spaceId, '', '');
  const commands = useBaseCommands(spaceId);
  const may = useKnowledgePermissions(undefined);
  const form = useModalSession<KnowledgeBase | null>(null);
  const groupForm = useModalSession<KnowledgeGroup | null>(null);

  const groupItems = groups.data?.items ?? [];
  const group = groupItems.find((item) => item.id === filter) ?? null;
  const groupName = (id: string | null) => groupItems.find((item) => item.id === id)?.name ?? null;
  const totals = groupTotals(everything.data?.items);
  const select = (next: GroupFilter) => (next ? go('knowledgeGroup', { params: { groupId: next } }) : go('knowledge'));
  const openForm = form.show;
  const open = (id: string) => go('knowledgeDetail', { params: { knowledgeId: id } });

  const items = list.data?.items ?? [];
  const nothingYet = filter === '' && list.isSuccess && items.length === 0 && !keyword;
  const unknownGroup = filter !== '' && filter !== UNGROUPED && groups.isSuccess && !group;

  const title =
    filter === ''
      ? t('routes.knowledge')
      : filter === UNGROUPED
        ? t('knowledge.groups.ungrouped')
        : (group?.name ?? '');
  const tools =
    nothingYet || !spaceId ? null : (
      <>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('knowledge.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          style={{ width: 240 }}
          maxLength={50}
          data-testid="knowledge-search"
        />
        {may.create ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)} data-testid="knowledge-create">
            {t('knowledge.create')}
          </Button>
        ) : null}
      </>
    );

  return (
    <Flex vertical gap={16} data-testid={filter ? 'page-knowledgeGroup' : 'page-knowledge'} data-group={filter}>
      {filter ? (
        <BackTitle title={title} backLabel={t('knowledge.backToList')} onBack={() => go('knowledge')} extra={tools} />
      ) : (
        <ListPageHead
          title={title}
          intro={t('knowledge.intro')}
          tools={
            <Flex gap={8} wrap>
              {tools}
            </Flex>
          }
        />
      )}
      <SideListLayout
        side={
          spaceId ? (
            <GroupList
              groups={groupItems}
              loading={groups.isPending}
              selected={filter}
              totals={totals}
              onSelect={select}
              onCreate={() => groupForm.show(null)}
              onRename={(g) => groupForm.show(g)}
              onDelete={async (g) => {
                if ((await commands.removeGroup(g)) && filter === g.id) go('knowledge', { replace: true });
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
          minCardWidth={280}
          texts={{
            noSpace: t('knowledge.noSpace'),
            notFound: t('knowledge.groups.notFound'),
            backToList: t('knowledge.backToList'),
            loadFailed: t('knowledge.loadFailed'),
          }}
          testIds={{
            noSpace: 'knowledge-no-space',
            notFound: 'knowledge-group-not-found',
            loading: 'knowledge-loading',
            error: 'knowledge-error',
            grid: 'knowledge-grid',
          }}
          onBack={() => go('knowledge')}
          empty={
            nothingYet ? (
              <KnowledgeEmpty onCreate={may.create ? () => openForm(null) : null} />
            ) : (
              <Empty
                data-testid="knowledge-no-match"
                description={keyword ? t('knowledge.noMatch', { keyword }) : t('knowledge.groups.emptyGroup')}
              />
            )
          }
        >
          {items.map((base) => (
            <KnowledgeCard
              key={base.id}
              base={base}
              groupName={filter === base.group_id ? null : groupName(base.group_id)}
              busy={commands.busyId === base.id}
              onOpen={() => open(base.id)}
              onEdit={() => openForm(base)}
              onDelete={() => void commands.remove(base)}
            />
          ))}
        </GroupedCardList>
      </SideListLayout>
      {spaceId ? (
        <>
          <KnowledgeFormModal
            key={`base-${form.key}`}
            open={form.open}
            spaceId={spaceId}
            base={form.value}
            groupId={filter && filter !== UNGROUPED ? filter : null}
            onClose={form.close}
            onSaved={(saved) => {
              if (!form.value) open(saved.id);
            }}
          />
          <GroupNameModal
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
