import {
  BranchesOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  FolderOpenOutlined,
  HistoryOutlined,
  LockOutlined,
  MoreOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  SaveOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { WorkflowSummary } from '@athena/contract';
import { Button, Card, Dropdown, Flex, type MenuProps, Tag, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
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
  const { token } = theme.useToken();
  const items = useActionItems(workflow, rights);
  return (
    <Card
      hoverable
      onClick={(event) => {
        // React sends clicks in the menu's popup (a portal) here too, a disabled entry's included.
        if (event.currentTarget.contains(event.target as Node)) onAction('open');
      }}
      data-testid="workflow-card"
      data-workflow-id={workflow.id}
      data-workflow-name={workflow.name}
      styles={{ body: { padding: 16, height: '100%' } }}
      style={{ height: '100%' }}
    >
      <Flex vertical gap={10} style={{ height: '100%' }}>
        <Flex gap={12} align="flex-start">
          <Flex
            align="center"
            justify="center"
            style={{
              width: 40,
              height: 40,
              flex: 'none',
              borderRadius: 10,
              background: token.colorPrimaryBg,
              color: token.colorPrimary,
              fontSize: 20,
            }}
          >
            <BranchesOutlined />
          </Flex>
          <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text
              strong
              ellipsis={{ tooltip: workflow.name }}
              style={{ fontSize: 15 }}
              data-testid="workflow-name"
            >
              {workflow.name}
            </Typography.Text>
            <Flex gap={4} wrap>
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
            </Flex>
          </Flex>
          {/* The menu (button and items) must not open the workflow as well. */}
          <Dropdown
            trigger={['click']}
            menu={{
              items,
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                onAction(key as WorkflowAction);
              },
            }}
          >
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined />}
              loading={busy}
              aria-label={t('workflows.card.more')}
              data-testid="workflow-card-menu"
              onClick={(event) => event.stopPropagation()}
            />
          </Dropdown>
        </Flex>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44, flex: 1 }}>
          {workflow.description}
        </Typography.Paragraph>
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
        <Flex
          justify="space-between"
          align="center"
          gap={8}
          style={{ borderTop: `1px solid ${token.colorSplit}`, paddingTop: 10 }}
        >
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid="workflow-creator">
            {workflow.created_by.nickname}
            {workflow.created_by.former_member ? ` ${t('workflows.card.formerMember')}` : ''}
          </Typography.Text>
          <Tooltip title={dayjs(workflow.updated_at).format('YYYY-MM-DD HH:mm')}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('workflows.card.updated', { time: dayjs(workflow.updated_at).fromNow() })}
            </Typography.Text>
          </Tooltip>
        </Flex>
      </Flex>
    </Card>
  );
}
