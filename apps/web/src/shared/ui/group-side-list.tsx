import { DeleteOutlined, EditOutlined, FolderOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { MoreMenu } from './more-menu.tsx';

/** '' is everything, 'ungrouped' what is in no group, anything else a group's id. */
export type GroupFilter = string;
export const UNGROUPED = 'ungrouped';

/** The All and Ungrouped counts of a list loaded whole; null while it is not loaded. */
export function groupTotals(items: { group_id: string | null }[] | undefined) {
  return items ? { all: items.length, ungrouped: items.filter((item) => item.group_id === null).length } : null;
}

interface SideGroup {
  id: string;
  name: string;
}

export interface GroupSideListTexts {
  title: string;
  create: string;
  all: string;
  ungrouped: string;
  empty: string;
  rename: string;
  delete: string;
  /** The label of a group's menu button. */
  actions: (name: string) => string;
}

export interface GroupSideListProps<G extends SideGroup> {
  groups: G[];
  /** How many things a group holds. */
  countOf: (group: G) => number;
  loading: boolean;
  selected: GroupFilter;
  /** Counts for All and Ungrouped; null while unknown. */
  totals: { all: number; ungrouped: number } | null;
  may: { create: boolean; rename: (group: G) => boolean; delete: (group: G) => boolean };
  texts: GroupSideListTexts;
  /** The card's test id; the rows' are `<testIdPrefix>group-all`, `…group-item`, `…group-menu` and so on. */
  testId: string;
  testIdPrefix: string;
  onSelect: (filter: GroupFilter) => void;
  onCreate: () => void;
  onRename: (group: G) => void;
  onDelete: (group: G) => void;
}

function Row(props: {
  icon: ReactNode;
  label: string;
  count: number | null;
  countTestId: string;
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
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={props.countTestId}>
          {props.count}
        </Typography.Text>
      )}
      {props.menu}
    </Flex>
  );
}

/**
 * The groups beside a list: All, Ungrouped and each group with its count; groups are created,
 * renamed and deleted here. Texts come translated, permissions from the page's domain.
 */
export function GroupSideList<G extends SideGroup>(props: GroupSideListProps<G>) {
  const { groups, loading, selected, totals, may, texts, testIdPrefix: p, onSelect } = props;
  const menuOf = (group: G) => {
    const items = [
      ...(may.rename(group) ? [{ key: 'rename', icon: <EditOutlined />, label: texts.rename }] : []),
      ...(may.delete(group) ? [{ key: 'delete', icon: <DeleteOutlined />, danger: true, label: texts.delete }] : []),
    ];
    if (items.length === 0) return null;
    return (
      <MoreMenu
        items={items}
        label={texts.actions(group.name)}
        testId={`${p}group-menu`}
        onSelect={(key) => {
          if (key === 'rename') props.onRename(group);
          if (key === 'delete') props.onDelete(group);
        }}
      />
    );
  };
  return (
    <Card size="small" styles={{ body: { padding: 8 } }} data-testid={props.testId}>
      <Flex align="center" justify="space-between" style={{ padding: '4px 4px 8px 12px' }}>
        <Typography.Text strong>{texts.title}</Typography.Text>
        {may.create ? (
          <Tooltip title={texts.create}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              onClick={props.onCreate}
              aria-label={texts.create}
              data-testid={`${p}group-create`}
            />
          </Tooltip>
        ) : null}
      </Flex>
      <Flex vertical gap={2}>
        <Row
          icon={<FolderOutlined />}
          label={texts.all}
          count={totals?.all ?? null}
          countTestId={`${p}group-count`}
          active={selected === ''}
          onClick={() => onSelect('')}
          testId={`${p}group-all`}
        />
        <Row
          icon={<InboxOutlined />}
          label={texts.ungrouped}
          count={totals?.ungrouped ?? null}
          countTestId={`${p}group-count`}
          active={selected === UNGROUPED}
          onClick={() => onSelect(UNGROUPED)}
          testId={`${p}group-ungrouped`}
        />
        {loading ? <Skeleton active title={false} paragraph={{ rows: 3 }} style={{ padding: '8px 12px' }} /> : null}
        {groups.map((group) => (
          <Row
            key={group.id}
            icon={<FolderOutlined />}
            label={group.name}
            count={props.countOf(group)}
            countTestId={`${p}group-count`}
            active={selected === group.id}
            onClick={() => onSelect(group.id)}
            testId={`${p}group-item`}
            groupId={group.id}
            menu={menuOf(group)}
          />
        ))}
        {!loading && groups.length === 0 ? (
          <Typography.Text
            type="secondary"
            style={{ fontSize: 12, padding: '8px 12px' }}
            data-testid={`${p}groups-empty`}
          >
            {texts.empty}
          </Typography.Text>
        ) : null}
      </Flex>
    </Card>
  );
}
