import { BranchesOutlined, PlusOutlined } from '@ant-design/icons';
import type { WorkflowGroup, WorkflowSummary } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Grid, Pagination, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { FirstUseEmpty } from '../../shared/ui/first-use-empty.tsx';
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

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', gap: 16 } as const;

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
  const wide = Grid.useBreakpoint().lg;
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const groups = useWorkflowGroups(spaceId);
  const list = useWorkflowList(spaceId, group, filters);
  const commands = useWorkflowCommands(spaceId);
  const may = useWorkflowGroupPermissions();
  const [create, setCreate] = useState({ session: 0, open: false });
  const [groupForm, setGroupForm] = useState<{ session: number; open: boolean; group: WorkflowGroup | null }>({
    session: 0,
    open: false,
    group: null,
  });
  const [form, setForm] = useState<{
    session: number;
    open: boolean;
    mode: WorkflowFormMode;
    workflow: WorkflowSummary | null;
  }>({ session: 0, open: false, mode: 'edit', workflow: null });

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
  const openCreate = () => setCreate((s) => ({ session: s.session + 1, open: true }));
  const openForm = (mode: WorkflowFormMode, workflow: WorkflowSummary) =>
    setForm((s) => ({ session: s.session + 1, open: true, mode, workflow }));

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

  let body: React.ReactNode;
  if (!spaceId) {
    body = (
      <Card>
        <Empty data-testid="workflows-no-space" description={t('workflows.noSpace')} />
      </Card>
    );
  } else if (unknownGroup) {
    body = (
      <Card data-testid="workflow-group-not-found">
        <Empty description={t('workflows.groups.notFound')}>
          <Button type="primary" onClick={() => go('aiWorkflows')}>
            {t('workflows.backToList')}
          </Button>
        </Empty>
      </Card>
    );
  } else if (list.isPending) {
    body = (
      <div style={GRID} data-testid="workflows-loading">
        {[0, 1, 2].map((i) => (
          <Card key={i}>
            <Skeleton active avatar paragraph={{ rows: 3 }} />
          </Card>
        ))}
      </div>
    );
  } else if (list.isError && items.length === 0) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="workflows-error"
        title={t('workflows.loadFailed')}
        description={errorText(list.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (nothingYet) {
    body = (
      <Card>
        <FirstUseEmpty
          icon={<BranchesOutlined />}
          title={t('workflows.empty.title')}
          text={t('workflows.empty.text')}
          steps={[t('workflows.empty.step1'), t('workflows.empty.step2'), t('workflows.empty.step3')]}
          createLabel={t('workflows.create')}
          onCreate={may.create ? openCreate : null}
          testId="workflows-empty"
        />
      </Card>
    );
  } else if (items.length === 0) {
    body = (
      <Card>
        <Empty
          data-testid="workflows-no-match"
          description={isFiltered(filters) ? t('workflows.noMatch') : t('workflows.emptyGroup')}
        />
      </Card>
    );
  } else {
    body = (
      <Flex vertical gap={16}>
        <div style={GRID} data-testid="workflow-grid">
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
        </div>
        {total > LIST_PAGE_SIZE ? (
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
        ) : null}
      </Flex>
    );
  }

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
        <Flex justify="space-between" align="flex-end" gap={12} wrap>
          <Flex vertical gap={4}>
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{t('workflows.intro')}</Typography.Text>
          </Flex>
          {nothingYet ? null : createButton}
        </Flex>
      )}
      <Flex gap={16} vertical={!wide} align="flex-start">
        {spaceId ? (
          <div style={{ width: wide ? 232 : '100%', flex: 'none' }}>
            <WorkflowGroupList
              groups={groupItems}
              loading={groups.isPending}
              selected={group}
              totals={totals}
              onSelect={select}
              onCreate={() => setGroupForm((s) => ({ session: s.session + 1, open: true, group: null }))}
              onRename={(g) => setGroupForm((s) => ({ session: s.session + 1, open: true, group: g }))}
              onDelete={async (g) => {
                if ((await commands.removeGroup(g)) && group === g.id) go('aiWorkflows', { replace: true });
              }}
            />
          </div>
        ) : null}
        <Flex vertical gap={12} style={{ flex: 1, minWidth: 0, width: '100%' }}>
          {spaceId && !nothingYet && !unknownGroup ? (
            <WorkflowFilterBar filters={filters} onChange={setFilters} />
          ) : null}
          {body}
        </Flex>
      </Flex>
      {spaceId ? (
        <>
          <CreateWorkflowModal
            key={`create-${create.session}`}
            open={create.open}
            spaceId={spaceId}
            groups={groupItems}
            groupId={current?.id ?? null}
            onClose={() => setCreate((s) => ({ ...s, open: false }))}
            onCreated={openEditor}
          />
          <GroupNameModal
            key={`group-${groupForm.session}`}
            open={groupForm.open}
            spaceId={spaceId}
            group={groupForm.group}
            onClose={() => setGroupForm((s) => ({ ...s, open: false }))}
          />
          <WorkflowFormModal
            key={`form-${form.session}`}
            open={form.open}
            mode={form.mode}
            spaceId={spaceId}
            workflow={form.workflow}
            groups={groupItems}
            onClose={() => setForm((s) => ({ ...s, open: false }))}
          />
        </>
      ) : null}
    </Flex>
  );
}
