import {
  ArrowLeftOutlined,
  BorderLeftOutlined,
  BorderRightOutlined,
  CheckCircleOutlined,
  CloudUploadOutlined,
  ExclamationCircleOutlined,
  ExpandOutlined,
  LoadingOutlined,
  NodeIndexOutlined,
  PlayCircleOutlined,
  RedoOutlined,
  SettingOutlined,
  UndoOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useReactFlow } from '@xyflow/react';
import { Badge, Button, Divider, Flex, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../shared/ui/relative-time.tsx';
import { TriggersButton } from '../triggers/triggers-button.tsx';
import { FIT } from './canvas.tsx';
import { applyPlacements, redo, undo, useEditorStore } from './editor-store.ts';
import type { FlowEdge, FlowNode } from './graph-flow.ts';
import { placementsOf, toElkGraph } from './layout.ts';
import type { SaveState } from './use-autosave.ts';
import type { SidePanel, SidePanels } from './use-side-panels.ts';

interface Props {
  name: string;
  save: { state: SaveState; savedAt: string | null };
  problemCount: number;
  locked: boolean;
  canPublish: boolean;
  publishing: boolean;
  onBack: () => void;
  onPublish: () => void;
  onTestRun: () => void;
  onSettings: () => void;
  onProblems: () => void;
  /** Which side panels show; the two toggles give the canvas the whole width. */
  panels: SidePanels;
  onTogglePanel: (which: SidePanel) => void;
}

function SaveIndicator({ state, savedAt }: Props['save']) {
  const { t } = useTranslation();
  const readOnly = useEditorStore((s) => s.readOnly);
  if (readOnly) return null;
  const icon = {
    saved: <CheckCircleOutlined style={{ color: '#52c41a' }} />,
    pending: <LoadingOutlined />,
    saving: <LoadingOutlined />,
    error: <ExclamationCircleOutlined style={{ color: '#ff4d4f' }} />,
    conflict: <WarningOutlined style={{ color: '#faad14' }} />,
  }[state];
  return (
    <Flex align="center" gap={6} data-testid="wf-save-state" data-state={state}>
      {icon}
      <Typography.Text type={state === 'error' ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {t(`workflowEditor.save.${state}`)}
        {state === 'saved' && savedAt ? (
          <>
            {' · '}
            <RelativeTime iso={savedAt} />
          </>
        ) : null}
      </Typography.Text>
    </Flex>
  );
}

export function EditorToolbar(props: Props) {
  const { t } = useTranslation();
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const canUndo = useEditorStore((s) => s.canUndo);
  const canRedo = useEditorStore((s) => s.canRedo);
  const readOnly = useEditorStore((s) => s.readOnly);
  const [laying, setLaying] = useState(false);

  const layout = async () => {
    setLaying(true);
    try {
      const { layoutInWorker } = await import('./layout-worker.ts');
      const { nodes, edges } = useEditorStore.getState();
      applyPlacements(placementsOf(await layoutInWorker(toElkGraph(nodes, edges))));
      requestAnimationFrame(() => void flow.fitView({ ...FIT, duration: 300 }));
    } finally {
      setLaying(false);
    }
  };

  return (
    <Flex align="center" gap={8} wrap style={{ padding: '8px 12px', borderBottom: '1px solid #f0f0f0', flex: 'none' }}>
      <Button
        type="text"
        icon={<ArrowLeftOutlined />}
        onClick={props.onBack}
        aria-label={t('workflowEditor.toolbar.back')}
        data-testid="wf-back"
      />
      <Typography.Title level={5} style={{ margin: 0, maxWidth: 280 }} ellipsis data-testid="page-title">
        {props.name}
      </Typography.Title>
      {props.locked ? <Tag color="orange">{t('workflowEditor.lock.tag')}</Tag> : null}
      <SaveIndicator {...props.save} />
      <div style={{ flex: 1 }} />
      {(['palette', 'panel'] as const).map((which) => {
        const label = t(`workflowEditor.toolbar.${props.panels[which] ? 'hide' : 'show'}.${which}`);
        return (
          <Tooltip key={which} title={label}>
            <Button
              icon={which === 'palette' ? <BorderLeftOutlined /> : <BorderRightOutlined />}
              type={props.panels[which] ? 'default' : 'dashed'}
              onClick={() => props.onTogglePanel(which)}
              aria-label={label}
              aria-pressed={props.panels[which]}
              data-testid={`wf-toggle-${which}`}
            />
          </Tooltip>
        );
      })}
      <Divider orientation="vertical" />
      <Tooltip title={t('workflowEditor.toolbar.undo')}>
        <Button
          icon={<UndoOutlined />}
          disabled={readOnly || !canUndo}
          onClick={undo}
          aria-label={t('workflowEditor.toolbar.undo')}
          data-testid="wf-undo"
        />
      </Tooltip>
      <Tooltip title={t('workflowEditor.toolbar.redo')}>
        <Button
          icon={<RedoOutlined />}
          disabled={readOnly || !canRedo}
          onClick={redo}
          aria-label={t('workflowEditor.toolbar.redo')}
          data-testid="wf-redo"
        />
      </Tooltip>
      <Tooltip title={t('workflowEditor.toolbar.layout')}>
        <Button
          icon={<NodeIndexOutlined />}
          loading={laying}
          disabled={readOnly}
          onClick={() => void layout()}
          aria-label={t('workflowEditor.toolbar.layout')}
          data-testid="wf-layout"
        />
      </Tooltip>
      <Tooltip title={t('workflowEditor.toolbar.fit')}>
        <Button
          icon={<ExpandOutlined />}
          onClick={() => void flow.fitView({ ...FIT, duration: 300 })}
          aria-label={t('workflowEditor.toolbar.fit')}
          data-testid="wf-fit"
        />
      </Tooltip>
      <Divider orientation="vertical" />
      <Button icon={<SettingOutlined />} onClick={props.onSettings} data-testid="wf-settings-button">
        {t('workflowEditor.settings.button')}
      </Button>
      <TriggersButton />
      <Button icon={<PlayCircleOutlined />} onClick={props.onTestRun} data-testid="wf-test-run">
        {t('workflowEditor.run.button')}
      </Button>
      <Badge count={props.problemCount} size="small">
        <Button icon={<WarningOutlined />} onClick={props.onProblems} data-testid="wf-problems-button">
          {t('workflowEditor.problems.button')}
        </Button>
      </Badge>
      {props.canPublish ? (
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          loading={props.publishing}
          disabled={readOnly}
          onClick={props.onPublish}
          data-testid="wf-publish"
        >
          {t('workflowEditor.toolbar.publish')}
        </Button>
      ) : null}
    </Flex>
  );
}
