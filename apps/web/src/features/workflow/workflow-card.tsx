import {
  BranchesOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  FolderOpenOutlined,
  HistoryOutlined,
  LockOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  SaveOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { WorkflowSummary } from '@athena/contract';
import { Flex, type MenuProps, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EntityCard } from '../../shared/ui/entity-card.tsx';
import { MoreMenu } from '../../shared/ui/more-menu.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { EffectiveTag, LockTag, RunResultTag } from './state-tags.tsx';
import type { WorkflowRights } from './workflow-permissions.ts';

export type WorkflowAction =
  | 'open'
  | 'runs'
  | 'edit'
  | 'move'
  | 'duplicate'
  | 'export'
  | 'saveTemplate'
  | 'lock'
  | 'unlock'
  | 'effective'
  | 'notEffective'
  | 'delete';

interface Props {
  workflow: WorkflowSummary;
  rights: WorkflowRights;
  groupName: string | null;
  busy: boolean;
  onAction: (action: WorkflowAction) => void;
}

/** A menu entry that may be refused: shown disabled, with the reason on hover. */
function item(
  key: WorkflowAction,
  icon: React.ReactNode,
  label: string,
  refusal: string | null,
  danger = false,
): NonNullable<MenuProps['items']>[number] {
  return {
    key,
    icon,
    danger,
    disabled: refusal !== null,
    label: (
      <Tooltip title={refusal} placement="right">
        {/* A block, so the reason shows wherever the pointer is on the row. */}
        <span data-testid={`workflow-action-${key}`} data-disabled={refusal !== null} style={{ display: 'block' }}>
          {label}
        </span>
      </Tooltip>
    ),
  };
}

/** The actions a person has for one workflow, in the order they are needed. */
export function useActionItems(workflow: WorkflowSummary, rights: WorkflowRights): MenuProps['items'] {
  const { t } = useTranslation();
  const locked = workflow.locked ? t('workflows.actions.lockedTip') : null;
  const items: MenuProps['items'] = [
    item('open', <BranchesOutlined />, t('workflows.actions.open'), null),
    item('runs', <HistoryOutlined />, t('workflows.actions.runs'), null),
  ];
  if (rights.change) {
    items.push(
      { type: 'divider' },
      item('edit', <EditOutlined />, t('workflows.actions.edit'), locked),
      item('move', <FolderOpenOutlined />, t('workflows.actions.move'), locked),
    );
  }
  items.push({ type: 'divider' });
  if (rights.copy) items.push(item('duplicate', <CopyOutlined />, t('workflows.actions.duplicate'), null));
  items.push(item('export', <ExportOutlined />, t('workflows.actions.export'), null));
  if (rights.copy) items.push(item('saveTemplate', <SaveOutlined />, t('workflows.actions.saveTemplate'), null));
  if (rights.lock || rights.change) items.push({ type: 'divider' });
  if (rights.lock) {
    items.push(
      workflow.locked
        ? item('unlock', <UnlockOutlined />, t('workflows.actions.unlock'), null)
        : item('lock', <LockOutlined />, t('workflows.actions.lock'), null),
    );
  }
  if (rights.change) {
    items.push(
      workflow.effective
        ? item('notEffective', <PauseCircleOutlined />, t('workflows.actions.makeNotEffective'), locked)
        : item(
            'effective',
            <PlayCircleOutlined />,
            t('workflows.actions.makeEffective'),
            locked ?? (workflow.published_version === null ? t('workflows.actions.publishFirst') : null),
          ),
      { type: 'divider' },
      item('delete', <DeleteOutlined />, t('workflows.actions.delete'), locked, true),
    );
  }
  return items;
}

/** One workflow in the grid: its two states, published version, last run and creator; the menu acts on it. */
export function WorkflowCard({ workflow, rights, groupName, busy, onAction }: Props) {
  const { t } = useTranslation();
  const items = useActionItems(workflow, rights);
  return (
    <EntityCard
      icon={<BranchesOutlined />}
      name={workflow.name}
      nameTestId="workflow-name"
      tags={
        <>
          <LockTag workflow={workflow} />
          <EffectiveTag workflow={workflow} />
          <Tag bordered={false} style={{ marginInlineEnd: 0 }} data-testid="workflow-version">
            {workflow.published_version === null
              ? t('workflows.card.unpublished')
              : t('workflows.card.version', { version: workflow.published_version })}
          </Tag>
          {groupName ? (
            <Tag bordered={false} color="blue" style={{ marginInlineEnd: 0 }} data-testid="workflow-group-tag">
              {groupName}
            </Tag>
          ) : null}
        </>
      }
      menu={
        <MoreMenu
          items={items}
          loading={busy}
          label={t('workflows.card.more')}
          testId="workflow-card-menu"
          onSelect={(key) => onAction(key as WorkflowAction)}
        />
      }
      description={workflow.description}
      creator={
        <>
          {workflow.created_by.nickname}
          {workflow.created_by.former_member ? ` ${t('workflows.card.formerMember')}` : ''}
        </>
      }
      creatorTestId="workflow-creator"
      updatedAt={workflow.updated_at}
      updatedText={(time) => t('workflows.card.updated', { time })}
      onClick={(event) => {
        // React sends clicks in the menu's popup (a portal) here too, a disabled entry's included.
        if (event.currentTarget.contains(event.target as Node)) onAction('open');
      }}
      testId="workflow-card"
      data={{ 'data-workflow-id': workflow.id, 'data-workflow-name': workflow.name }}
    >
      <Flex align="center" gap={8} style={{ fontSize: 12 }} data-testid="workflow-last-run">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('workflows.card.lastRun')}
        </Typography.Text>
        <RunResultTag result={workflow.last_run?.result ?? null} testId="workflow-last-result" />
        {workflow.last_run ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <RelativeTime iso={workflow.last_run.at} />
          </Typography.Text>
        ) : null}
      </Flex>
    </EntityCard>
  );
}
