import { useReactFlow } from '@xyflow/react';
import { App, Flex, Tooltip, Typography } from 'antd';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowEdge, FlowNode } from './graph-flow.ts';
import { KIND_ICONS } from './node-icons.tsx';
import { KIND_INFO, PALETTE_GROUPS } from './node-kinds.ts';
import { type AddRefusal, addKindAfterSelection, PALETTE_DRAG_TYPE } from './palette-actions.ts';

/** The node kinds: drag one onto the canvas, or click to add it after the selected node. */
export function Palette() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const say = (refusal: AddRefusal | null) => {
    if (refusal === 'oneStart') void message.warning(t('workflowEditor.palette.oneStart'));
  };
  return (
    <Flex vertical gap={12} style={{ padding: 12, overflowY: 'auto', height: '100%' }} data-testid="wf-palette">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('workflowEditor.palette.hint')}
      </Typography.Text>
      {PALETTE_GROUPS.map((group) => (
        <Flex vertical gap={2} key={group.key}>
          <Typography.Text strong style={{ fontSize: 12 }}>
            {t(`workflowEditor.palette.groups.${group.key}`)}
          </Typography.Text>
          {group.kinds.map((kind) => (
            <Tooltip key={kind} title={t(`workflowEditor.kinds.${kind}.description`)} placement="right">
              <Flex
                align="center"
                gap={8}
                className="wf-palette-item"
                draggable
                role="button"
                tabIndex={0}
                data-testid={`wf-palette-${kind}`}
                onDragStart={(event: DragEvent) => {
                  event.dataTransfer.setData(PALETTE_DRAG_TYPE, kind);
                  event.dataTransfer.effectAllowed = 'copy';
                }}
                onClick={() => say(addKindAfterSelection(kind, flow, t))}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') say(addKindAfterSelection(kind, flow, t));
                }}
              >
                <span className="wf-node-icon" style={{ background: KIND_INFO[kind].color }}>
                  {KIND_ICONS[kind]}
                </span>
                <span>{t(`workflowEditor.kinds.${kind}.name`)}</span>
              </Flex>
            </Tooltip>
          ))}
        </Flex>
      ))}
    </Flex>
  );
}
