import {
  DeleteOutlined,
  EditOutlined,
  FolderOutlined,
  InboxOutlined,
  MoreOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { KnowledgeGroup } from '@athena/contract';
import { Button, Card, Dropdown, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupPermissions } from './knowledge-permissions.ts';

export type { KnowledgeGroup };
/** '' is every base, 'ungrouped' the bases in no group, anything else a group's id. */
export type GroupFilter = string;
export const UNGROUPED = 'ungrouped';

interface Props {
  groups: KnowledgeGroup[];
  loading: boolean;
  selected: GroupFilter;
  /** Counts for All and Ungrouped; null while unknown. */
  totals: { all: number; ungrouped: number } | null;
  onSelect: (filter: GroupFilter) => void;
  onCreate: () => void;
  onRename: (group: KnowledgeGroup) => void;
  onDelete: (group: KnowledgeGroup) => void;
}

function Row({
  icon,
  label,
  count,
  active,
  onClick,
  testId,
  menu,
}: {
  icon: ReactNode;
  label: string;
  count: number | null;
  active: boolean;
  onClick: () => void;
  testId: string;
  menu?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      gap={8}
      className="athena-knowledge-group"
      style={{
        padding: '6px 8px 6px 12px',
        borderRadius: 8,
        cursor: 'pointer',
        background: active ? token.colorPrimaryBg : undefined,
        color: active ? token.colorPrimary : undefined,
      }}
      onClick={onClick}
      data-testid={testId}
      data-active={active}
    >
      {icon}
      <button
        type="button"
        onClick={(event) => {
          event.stopPropagation();
          onClick();
        }}
        aria-current={active ? 'page' : undefined}
        style={{
          all: 'unset',
          flex: 1,
          minWidth: 0,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          fontWeight: active ? 600 : undefined,
        }}
        title={label}
      >
        {label}
      </button>
      {count === null ? null : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="group-count">
          {count}
        </Typography.Text>
      )}
      {menu}
    </Flex>
  );
}

/** The groups beside the list: All, Ungrouped and each group with its count; groups are managed here. */
export function GroupList({ groups, loading, selected, totals, onSelect, onCreate, onRename, onDelete }: Props) {
  const { t } = useTranslation();
  const may = useGroupPermissions();
  return (
    <Card size="small" styles={{ body: { padding: 8 } }} data-testid="knowledge-groups">
      <Flex align="center" justify="space-between" style={{ padding: '4px 4px 8px 12px' }}>
        <Typography.Text strong>{t('knowledge.groups.title')}</Typography.Text>
        {may.create ? (
          <Tooltip title={t('knowledge.groups.create')}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              onClick={onCreate}
              aria-label={t('knowledge.groups.create')}
              data-testid="group-create"
            />
          </Tooltip>
        ) : null}
      </Flex>
      <Flex vertical gap={2}>
        <Row
          icon={<FolderOutlined />}
          label={t('knowledge.groups.all')}
          count={totals?.all ?? null}
          active={selected === ''}
          onClick={() => onSelect('')}
          testId="group-all"
        />
        <Row
          icon={<InboxOutlined />}
          label={t('knowledge.groups.ungrouped')}
          count={totals?.ungrouped ?? null}
          active={selected === UNGROUPED}
          onClick={() => onSelect(UNGROUPED)}
          testId="group-ungrouped"
        />
        {loading ? <Skeleton active title={false} paragraph={{ rows: 3 }} style={{ padding: '8px 12px' }} /> : null}
        {groups.map((group) => (
          <Row
            key={group.id}
            icon={<FolderOutlined />}
            label={group.name}
            count={group.knowledge_count}
            active={selected === group.id}
            onClick={() => onSelect(group.id)}
            testId="group-item"
            menu={
              may.rename(group) || may.delete(group) ? (
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      ...(may.rename(group)
                        ? [{ key: 'rename', icon: <EditOutlined />, label: t('knowledge.groups.rename') }]
                        : []),
                      ...(may.delete(group)
                        ? [
                            {
                              key: 'delete',
                              icon: <DeleteOutlined />,
                              danger: true,
                              label: t('knowledge.groups.delete'),
                            },
                          ]
                        : []),
                    ],
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
                    aria-label={t('knowledge.groups.actions', { name: group.name })}
                    data-testid="group-menu"
                    onClick={(event) => event.stopPropagation()}
                  />
                </Dropdown>
              ) : null
            }
          />
        ))}
        {!loading && groups.length === 0 ? (
          <Typography.Text type="secondary" style={{ fontSize: 12, padding: '8px 12px' }} data-testid="groups-empty">
            {t('knowledge.groups.empty')}
          </Typography.Text>
        ) : null}
      </Flex>
    </Card>
  );
}
