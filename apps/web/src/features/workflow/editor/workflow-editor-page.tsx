import { LockOutlined } from '@ant-design/icons';
import { ERRORS, type WorkflowDetail, workflowRoutes } from '@athena/contract';
import { ReactFlowProvider } from '@xyflow/react';
import { Alert, App, Button, Card, Empty, Flex, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { useGo } from '../../../lib/navigation.ts';
import { useApiMutation } from '../../../shared/hooks/use-api-mutation.ts';
import { useSpaceId } from '../../../shared/hooks/use-current-space.ts';
import { useLeaveGuard } from '../../../shared/hooks/use-leave-guard.ts';
import { Canvas } from './canvas.tsx';
import { ConfigPanel } from './config-panel.tsx';
import { markPublished, useWorkflowDetail } from './editor-queries.ts';
import { loadGraph, selectNode, setProblemIds, setReadOnly, useEditorStore } from './editor-store.ts';
import { EditorToolbar } from './editor-toolbar.tsx';
import { Palette } from './palette.tsx';
import { ProblemsList } from './problems-list.tsx';
import { PublishDialog } from './publish-dialog.tsx';
import { RunPanel } from './run-panel.tsx';
import { serverOnlyProblems } from './server-problems.ts';
import { SettingsDrawer } from './settings-drawer.tsx';
import { useAutosave } from './use-autosave.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useSidePanels } from './use-side-panels.ts';
import { useValidation } from './use-validation.ts';

/** The app header (64): the editor is a wide page (no padding, sider hidden) and fills the rest. */
const EDITOR_HEIGHT = 'calc(100vh - 64px)';

/** /ai-workflows/:workflowId: the canvas editor of a workflow's draft. */
export function WorkflowEditorPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { workflowId = '' } = useParams();
  const spaceId = useSpaceId();
  const detail = useWorkflowDetail(spaceId, workflowId);

  if (detail.isPending) {
    return (
      <Card data-testid="wf-editor-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (detail.isError || !spaceId) {
    const missing = detail.error instanceof ApiError && detail.error.code === ERRORS.WORKFLOW_NOT_FOUND.code;
    return (
      <Card data-testid={missing ? 'wf-editor-not-found' : 'wf-editor-error'}>
        {missing ? (
          <Empty description={t('workflowEditor.notFound')}>
            <Button type="primary" onClick={() => go('aiWorkflows')}>
              {t('workflowEditor.toolbar.back')}
            </Button>
          </Empty>
        ) : (
          <Alert
            type="error"
            showIcon
            title={t('workflowEditor.loadFailed')}
            description={errorText(detail.error, currentLocale())}
            action={<Button onClick={() => void detail.refetch()}>{t('workflowEditor.retry')}</Button>}
          />
        )}
      </Card>
    );
  }
  return (
    <ReactFlowProvider>
      <Editor key={detail.data.id} workflow={detail.data} spaceId={spaceId} />
    </ReactFlowProvider>
  );
}

function Editor({ workflow, spaceId }: { workflow: WorkflowDetail; spaceId: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const go = useGo();
  const readOnly = workflow.locked || !workflow.can_edit;
  // The draft is loaded once, before the canvas first draws; later refetches of the detail never
  // replace what is being edited. (No unmount cleanup: StrictMode's rehearsal would empty it.)
  useState(() => loadGraph(workflow.draft, readOnly));
  // Locked or unlocked meanwhile (the detail refetched): the canvas follows.
  useEffect(() => setReadOnly(readOnly), [readOnly]);
  const selectedId = useEditorStore((state) => state.selectedId);
  const panels = useSidePanels();
  // Choosing a node is asking for its settings: a hidden settings panel comes back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection reopens it
  useEffect(() => {
    if (selectedId) panels.set('panel', true);
  }, [selectedId]);
  const local = useValidation();
  const [initialExtras] = useState(() => serverOnlyProblems(workflow.draft, workflow.problems));
  const save = useAutosave(workflow.id, workflow.draft_revision, initialExtras);
  const version = useEditorStore((state) => state.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the nodes read here
  const problems = useMemo(() => {
    const present = new Set(useEditorStore.getState().nodes.map((node) => node.id));
    return [...local, ...save.extras.filter((problem) => !problem.node_id || present.has(problem.node_id))];
  }, [local, save.extras, version]);
  useEffect(
    () => setProblemIds(new Set(problems.flatMap((problem) => (problem.node_id ? [problem.node_id] : [])))),
    [problems],
  );
  const publish = useApiMutation(workflowRoutes.publish);
  useShortcuts();
  useLeaveGuard(save.dirty && save.state !== 'conflict', {
    title: t('workflowEditor.leave.title'),
    text: t('workflowEditor.leave.text'),
    ok: t('workflowEditor.leave.ok'),
    stay: t('workflowEditor.leave.stay'),
  });
  const [drawer, setDrawer] = useState<'run' | 'settings' | 'publish' | null>(null);
  const onPublish = async (note: string) => {
    if (!(await save.flush())) return;
    try {
      const version = await publish.mutateAsync({ id: workflow.id, note });
      markPublished(spaceId, workflow.id, version.number);
      setDrawer(null);
      void message.success(t('workflowEditor.published', { version: version.number }));
    } catch {
      // The failure's notice is already showing.
    }
  };

  const onConflict = (choice: 'reload' | 'overwrite') => {
    if (choice === 'overwrite') {
      void save.overwrite();
      return;
    }
    modal.confirm({
      title: t('workflowEditor.conflict.reloadConfirm'),
      okButtonProps: { danger: true },
      okText: t('workflowEditor.conflict.reload'),
      onOk: () => save.reload(),
    });
  };

  return (
    <Card
      variant="borderless"
      style={{ height: EDITOR_HEIGHT, display: 'flex', flexDirection: 'column', borderRadius: 0 }}
      styles={{ body: { padding: 0, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } }}
      data-testid="page-workflowEditor"
      data-workflow-id={workflow.id}
    >
      <EditorToolbar
        name={workflow.name}
        save={save}
        problemCount={problems.length}
        locked={workflow.locked}
        canPublish={workflow.can_edit}
        publishing={publish.isPending}
        onBack={() => go('aiWorkflows')}
        onPublish={() => setDrawer('publish')}
        onTestRun={() => setDrawer('run')}
        onSettings={() => setDrawer('settings')}
        onProblems={() => {
          selectNode(null);
          panels.set('panel', true);
        }}
        panels={panels.shown}
        onTogglePanel={panels.toggle}
      />
      <RunPanel open={drawer === 'run'} onClose={() => setDrawer(null)} workflowId={workflow.id} flush={save.flush} />
      <SettingsDrawer open={drawer === 'settings'} onClose={() => setDrawer(null)} />
      <PublishDialog
        open={drawer === 'publish'}
        publishing={publish.isPending}
        onCancel={() => setDrawer(null)}
        onPublish={(note) => void onPublish(note)}
      />
      {readOnly ? (
        <Alert
          banner
          type="warning"
          icon={<LockOutlined />}
          data-testid="wf-lock-banner"
          title={workflow.locked ? t('workflowEditor.lock.locked') : t('workflowEditor.lock.noPermission')}
        />
      ) : null}
      {save.state === 'conflict' ? (
        <Alert
          banner
          type="error"
          data-testid="wf-conflict"
          title={t('workflowEditor.conflict.title')}
          description={t('workflowEditor.conflict.text')}
          action={
            <Flex vertical gap={6}>
              <Button size="small" danger onClick={() => onConflict('reload')} data-testid="wf-conflict-reload">
                {t('workflowEditor.conflict.reload')}
              </Button>
              <Button
                size="small"
                type="primary"
                onClick={() => onConflict('overwrite')}
                data-testid="wf-conflict-overwrite"
              >
                {t('workflowEditor.conflict.overwrite')}
              </Button>
            </Flex>
          }
        />
      ) : null}
      <Flex style={{ flex: 1, minHeight: 0 }}>
        {readOnly || !panels.shown.palette ? null : (
          <div style={{ width: 200, flex: 'none', borderRight: '1px solid #f0f0f0' }}>
            <Palette />
          </div>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <Canvas />
        </div>
        {panels.shown.panel ? (
          <div style={{ width: 360, flex: 'none', borderLeft: '1px solid #f0f0f0', minHeight: 0 }}>
            {selectedId ? (
              <ConfigPanel
                key={selectedId}
                nodeId={selectedId}
                spaceId={spaceId}
                workflowId={workflow.id}
                flush={save.flush}
              />
            ) : (
              <ProblemsList problems={problems} />
            )}
          </div>
        ) : null}
      </Flex>
    </Card>
  );
}
