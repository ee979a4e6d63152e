import { BranchesOutlined, PlusOutlined } from '@ant-design/icons';
import type { WorkflowGroup, WorkflowSummary } from '@athena/contract';
import { Button, Empty, Flex, Pagination } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { FirstUseEmpty } from '../../shared/ui/first-use-empty.tsx';
import { GroupedCardList } from '../../shared/ui/grouped-card-list.tsx';
import { ListPageHead, SideListLayout } from '../../shared/ui/list-page-parts.tsx';
import { BackTitle } from '../knowledge/back-title.tsx';
import { CreateWorkflowModal } from './create-workflow-modal.tsx';
import { GroupNameModal } from './group-name-modal.tsx';
import {
  filtersFromSearch,
  filtersToSearch,
  type GroupFilter,
  isFiltered,
  LIST_PAGE_SIZE,
  type ListFilters,
  UNGROUPED,
} from './list-filters.ts';
import { type WorkflowAction, WorkflowCard } from './workflow-card.tsx';
import { useWorkflowCommands } from './workflow-commands.ts';
import { WorkflowFilterBar } from './workflow-filter-bar.tsx';
import { WorkflowFormModal, type WorkflowFormMode } from './workflow-form-modal.tsx';
import { WorkflowGroupList } from './workflow-group-list.tsx';
import { useWorkflowGroupPermissions, workflowRights } from './workflow-permissions.ts';
import { useWorkflowGroups, useWorkflowList } from './workflow-queries.ts';

/** /ai-workflows: every workflow of the space, with the groups beside them. */
export function WorkflowsPage() {
  return <WorkflowListView group="" />;
}

/** /AIWorkflow/group/:groupId — the same list, one group (or `ungrouped`) only. */
export function WorkflowGroupPage() {
  const { groupId = '' } = useParams();
  return <WorkflowListView group={groupId} />;
}

function WorkflowListView({ group }: { group: GroupFilter }) {
  const { t } = useTranslation();
  const go = useGo();
  const spaceId = useSpaceId();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const groups = useWorkflowGroups(spaceId);
  const list = useWorkflowList(spaceId, group, filters);
  const commands = useWorkflowCommands(spaceId);
  const may = useWorkflowGroupPermissions();
  const create = useModalSession(null);
  const groupForm = useModalSession<WorkflowGroup | null>(null);
  const form = useModalSession<{ mode: WorkflowFormMode; workflow: WorkflowSummary | null }>({
    mode: 'edit',
    workflow: null,
  });

  const groupItems = groups.data?.items ?? [];
  const current = groupItems.find((item) => item.id === group) ?? null;
  const groupName = (id: string | null) => groupItems.find((item) => item.id === id)?.name ?? null;
  const totals = groups.data
    ? {
        all: groups.data.ungrouped_count + groupItems.reduce((sum, item) => sum + item.workflow_count, 0),
        ungrouped: groups.data.ungrouped_count,
      }
    : null;
  const setFilters = (next: ListFilters) => setSearch(filtersToSearch(next), { replace: true });
  const select = (next: GroupFilter) => (next ? go('workflowGroup', { params: { groupId: next } }) : go('aiWorkflows'));
  const openEditor = (id: string) => go('workflowEditor', { params: { workflowId: id } });
  const openCreate = () => create.show(null);
  const openForm = (mode: WorkflowFormMode, workflow: WorkflowSummary) => form.show({ mode, workflow });

  const act = async (workflow: WorkflowSummary, action: WorkflowAction) => {
    if (action === 'open') openEditor(workflow.id);
    else if (action === 'runs') go('workflowRuns', { params: { workflowId: workflow.id } });
    else if (action === 'edit' || action === 'move' || action === 'saveTemplate')
      openForm(action === 'saveTemplate' ? 'template' : action, workflow);
    else if (action === 'duplicate') await commands.duplicate(workflow);
    else if (action === 'export') await commands.exportFile(workflow);
    else if (action === 'lock' || action === 'unlock') await commands.setLocked(workflow, action === 'lock');
    else if (action === 'effective' || action === 'notEffective')
      await commands.setEffective(workflow, action === 'effective');
    else if (action === 'delete') await commands.remove(workflow);
  };

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const nothingYet = group === '' && list.isSuccess && total === 0 && !isFiltered(filters);
  const unknownGroup = group !== '' && group !== UNGROUPED && groups.isSuccess && !current;

  const title =
    group === ''
      ? t('routes.aiWorkflows')
      : group === UNGROUPED
        ? t('workflows.groups.ungrouped')
        : (current?.name ?? '');
  const createButton =
    spaceId && may.create ? (
      <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="workflow-create">
        {t('workflows.create')}
      </Button>
    ) : null;

  return (
    <Flex vertical gap={16} data-testid={group ? 'page-workflowGroup' : 'page-aiWorkflows'} data-group={group}>
      {group ? (
        <BackTitle
          title={title}
          backLabel={t('workflows.backToList')}
          onBack={() => go('aiWorkflows')}
          extra={createButton}
        />
      ) : (
        <ListPageHead title={title} intro={t('workflows.intro')} tools={nothingYet ? null : createButton} />
      )}
      <SideListLayout
        side={
          spaceId ? (
            <WorkflowGroupList
              groups={groupItems}
              loading={groups.isPending}
              selected={group}
              totals={totals}
              onSelect={select}
              onCreate={() => groupForm.show(null)}
              onRename={(g) => groupForm.show(g)}
              onDelete={async (g) => {
                if ((await commands.removeGroup(g)) && group === g.id) go('aiWorkflows', { replace: true });
              }}
            />
          ) : null
        }
      >
        <Flex vertical gap={12}>
          {spaceId && !nothingYet && !unknownGroup ? (
            <WorkflowFilterBar filters={filters} onChange={setFilters} />
          ) : null}
          <GroupedCardList
            hasSpace={!!spaceId}
            unknownGroup={unknownGroup}
            list={list}
            count={items.length}
            minCardWidth={300}
            texts={{
              noSpace: t('workflows.noSpace'),
              notFound: t('workflows.groups.notFound'),
              backToList: t('workflows.backToList'),
              loadFailed: t('workflows.loadFailed'),
            }}
            testIds={{
              noSpace: 'workflows-no-space',
              notFound: 'workflow-group-not-found',
              loading: 'workflows-loading',
              error: 'workflows-error',
              grid: 'workflow-grid',
            }}
            onBack={() => go('aiWorkflows')}
            empty={
              nothingYet ? (
                <FirstUseEmpty
                  icon={<BranchesOutlined />}
                  title={t('workflows.empty.title')}
                  text={t('workflows.empty.text')}
                  steps={[t('workflows.empty.step1'), t('workflows.empty.step2'), t('workflows.empty.step3')]}
                  createLabel={t('workflows.create')}
                  onCreate={may.create ? openCreate : null}
                  testId="workflows-empty"
                />
              ) : (
                <Empty
                  data-testid="workflows-no-match"
                  description={isFiltered(filters) ? t('workflows.noMatch') : t('workflows.emptyGroup')}
                />
              )
            }
            footer={
              total > LIST_PAGE_SIZE ? (
                <Flex justify="flex-end">
                  <Pagination
                    current={filters.page}
                    pageSize={LIST_PAGE_SIZE}
                    total={total}
                    showSizeChanger={false}
                    showTotal={(count) => t('workflows.total', { count })}
                    onChange={(page) => setFilters({ ...filters, page })}
                  />
                </Flex>
              ) : null
            }
          >
            {items.map((workflow) => (
              <WorkflowCard
                key={workflow.id}
                workflow={workflow}
                rights={workflowRights(workflow, may.create)}
                groupName={group === workflow.group_id ? null : groupName(workflow.group_id)}
                busy={commands.busyId === workflow.id}
                onAction={(action) => void act(workflow, action)}
              />
            ))}
          </GroupedCardList>
        </Flex>
      </SideListLayout>
      {spaceId ? (
        <>
          <CreateWorkflowModal
            key={`create-${create.key}`}
            open={create.open}
            spaceId={spaceId}
            groups={groupItems}
            groupId={current?.id ?? null}
            onClose={create.close}
            onCreated={openEditor}
          />
          <GroupNameModal
            key={`group-${groupForm.key}`}
            open={groupForm.open}
            spaceId={spaceId}
            group={groupForm.value}
            onClose={groupForm.close}
          />
          <WorkflowFormModal
            key={`form-${form.key}`}
            open={form.open}
            mode={form.value.mode}
            spaceId={spaceId}
            workflow={form.value.workflow}
            groups={groupItems}
            onClose={form.close}
          />
        </>
      ) : null}
    </Flex>
  );
}
