import {
  DeleteOutlined,
  EditOutlined,
  FolderOutlined,
  InboxOutlined,
  MoreOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { WorkflowGroup } from '@athena/contract';
import { Button, Card, Dropdown, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type GroupFilter, UNGROUPED } from './list-filters.ts';
import { useWorkflowGroupPermissions } from './workflow-permissions.ts';

interface Props {
  groups: WorkflowGroup[];
  loading: boolean;
  selected: GroupFilter;
  /** Counts for All and Ungrouped; null while unknown. */
  totals: { all: number; ungrouped: number } | null;
  onSelect: (filter: GroupFilter) => void;
  onCreate: () => void;
  onRename: (group: WorkflowGroup) => void;
  onDelete: (group: WorkflowGroup) => void;
}

function Row(props: {
  icon: ReactNode;
  label: string;
  count: number | null;
  active: boolean;
  onClick: () => void;
  testId: string;
  groupId?: string;
  menu?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      gap={8}
      style={{
        padding: '6px 8px 6px 12px',
        borderRadius: 8,
        cursor: 'pointer',
        background: props.active ? token.colorPrimaryBg : undefined,
        color: props.active ? token.colorPrimary : undefined,
      }}
      onClick={props.onClick}
      data-testid={props.testId}
      data-group-id={props.groupId}
      data-active={props.active}
    >
      {props.icon}
      <button
        type="button"
        onClick={(event) => {
          event.stopPropagation();
          props.onClick();
        }}
        aria-current={props.active ? 'page' : undefined}
        style={{
          all: 'unset',
          flex: 1,
          minWidth: 0,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          fontWeight: props.active ? 600 : undefined,
        }}
        title={props.label}
      >
        {props.label}
      </button>
      {props.count === null ? null : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="workflow-group-count">
          {props.count}
        </Typography.Text>
      )}
      {props.menu}
    </Flex>
  );
}

/** The groups beside the list: All, Ungrouped and each group with its count; groups are managed here. */
export function WorkflowGroupList({
  groups,
  loading,
  selected,
  totals,
  onSelect,
  onCreate,
  onRename,
  onDelete,
}: Props) {
  const { t } = useTranslation();
  const may = useWorkflowGroupPermissions();
  const menuOf = (group: WorkflowGroup) => {
    const items = [
      ...(may.rename(group) ? [{ key: 'rename', icon: <EditOutlined />, label: t('workflows.groups.rename') }] : []),
      ...(may.delete(group)
        ? [{ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('workflows.groups.delete') }]
        : []),
    ];
    if (items.length === 0) return null;
    return (
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: ({ key, domEvent }) => {
            domEvent.stopPropagation();
            if (key === 'rename') onRename(group);
            if (key === 'delete') onDelete(group);
          },
        }}
      >
        <Button
          type="text"
          size="small"
          icon={<MoreOutlined />}
          aria-label={t('workflows.groups.actions', { name: group.name })}
          data-testid="workflow-group-menu"
          onClick={(event) => event.stopPropagation()}
        />
      </Dropdown>
    );
  };
  return (
    <Card size="small" styles={{ body: { padding: 8 } }} data-testid="workflow-groups">
      <Flex align="center" justify="space-between" style={{ padding: '4px 4px 8px 12px' }}>
        <Typography.Text strong>{t('workflows.groups.title')}</Typography.Text>
        {may.create ? (
          <Tooltip title={t('workflows.groups.create')}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              onClick={onCreate}
              aria-label={t('workflows.groups.create')}
              data-testid="workflow-group-create"
            />
          </Tooltip>
        ) : null}
      </Flex>
      <Flex vertical gap={2}>
        <Row
          icon={<FolderOutlined />}
          label={t('workflows.groups.all')}
          count={totals?.all ?? null}
          active={selected === ''}
          onClick={() => onSelect('')}
          testId="workflow-group-all"
        />
        <Row
          icon={<InboxOutlined />}
          label={t('workflows.groups.ungrouped')}
          count={totals?.ungrouped ?? null}
          active={selected === UNGROUPED}
          onClick={() => onSelect(UNGROUPED)}
          testId="workflow-group-ungrouped"
        />
        {loading ? <Skeleton active title={false} paragraph={{ rows: 3 }} style={{ padding: '8px 12px' }} /> : null}
        {groups.map((group) => (
          <Row
            key={group.id}
            icon={<FolderOutlined />}
            label={group.name}
            count={group.workflow_count}
            active={selected === group.id}
            onClick={() => onSelect(group.id)}
            testId="workflow-group-item"
            groupId={group.id}
            menu={menuOf(group)}
          />
        ))}
        {!loading && groups.length === 0 ? (
          <Typography.Text
            type="secondary"
            style={{ fontSize: 12, padding: '8px 12px' }}
            data-testid="workflow-groups-empty"
          >
            {t('workflows.groups.empty')}
          </Typography.Text>
        ) : null}
      </Flex>
    </Card>
  );
}
