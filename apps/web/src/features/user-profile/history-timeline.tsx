import { ArrowRightOutlined } from '@ant-design/icons';
import { type ProfileChange, type ProfileField, profileRoutes } from '@athena/contract';
import { App, Button, Empty, Flex, Popconfirm, Select, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { ChangeSource } from './change-source.tsx';
import { afterValueChange, useHistory } from './profile-queries.ts';
import { undoableIds } from './profile-values.ts';

interface Props {
  customerId: string;
  fields: readonly ProfileField[];
  /** '' for every field. */
  fieldId: string;
  onFieldChange: (fieldId: string) => void;
  canEdit: boolean;
  spaceId: string | null;
  sceneId: number;
}

function ValueText({ value }: { value: string | null }) {
  const { t } = useTranslation();
  return value === null || value === '' ? (
    <Typography.Text type="secondary" italic>
      {t('userProfile.value.empty')}
    </Typography.Text>
  ) : (
    <Typography.Text style={{ wordBreak: 'break-word' }}>{value}</Typography.Text>
  );
}

/** A customer's changes, newest first: old → new, who and when; the newest of a field can be undone. */
export function HistoryTimeline({ customerId, fields, fieldId, onFieldChange, canEdit, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const history = useHistory(spaceId, sceneId, customerId, fieldId);
  const revert = useApiMutation(profileRoutes.revert);
  const changes = useMemo(() => history.data?.pages.flatMap((page) => page.items) ?? [], [history.data]);
  // With one field's history the newest change is the first; across fields, each field's first.
  const undoable = useMemo(() => undoableIds(changes), [changes]);
  // A change that undid another one says so: its "old → new" alone would read like an edit.
  const undos = useMemo(() => new Set(changes.map((change) => change.reverted_by)), [changes]);

  const undo = async (change: ProfileChange) => {
    try {
      const customer = await revert.mutateAsync({ change_id: change.id });
      void message.success(t('userProfile.history.undone', { field: change.field_name }));
      await afterValueChange(spaceId, sceneId, customer);
    } catch {
      // The failure's notice is already showing.
    }
  };

  const picker = (
    <Select
      value={fieldId}
      onChange={onFieldChange}
      options={[
        { value: '', label: t('userProfile.history.allFields') },
        ...fields.map((field) => ({ value: field.id, label: field.name })),
      ]}
      style={{ minWidth: 180, marginBottom: 16 }}
      popupMatchSelectWidth={false}
      data-testid="profile-history-field"
    />
  );

  if (history.isError) {
    return (
      <>
        {picker}
        <ListLoadError
          title={t('userProfile.history.loadFailed')}
          error={history.error}
          onRetry={() => void history.refetch()}
          testId="profile-history-error"
        />
      </>
    );
  }
  if (history.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const item = (change: ProfileChange) => ({
    key: change.id,
    color: change.reverted_by ? 'gray' : change.source === 'ai' ? 'purple' : 'blue',
    content: (
      <div data-testid="profile-change" data-field={change.field_name} data-id={change.id}>
        <Flex justify="space-between" align="baseline" gap={8}>
          <Typography.Text strong>
            {change.field_name}
            {undos.has(change.id) ? (
              <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12, marginInlineStart: 8 }}>
                {t('userProfile.history.isUndo')}
              </Typography.Text>
            ) : null}
          </Typography.Text>
          {change.reverted_by ? (
            <Tag bordered={false} data-testid="profile-change-reverted">
              {t('userProfile.history.reverted')}
            </Tag>
          ) : canEdit && undoable.has(change.id) ? (
            <Popconfirm
              title={t('userProfile.history.undoTitle')}
              description={t('userProfile.history.undoText')}
              okText={t('userProfile.history.undo')}
              cancelText={t('userProfile.value.cancel')}
              onConfirm={() => undo(change)}
            >
              <Button type="link" size="small" style={{ padding: 0 }} data-testid="profile-change-undo">
                {t('userProfile.history.undo')}
              </Button>
            </Popconfirm>
          ) : null}
        </Flex>
        <Flex gap={8} align="center" wrap style={{ margin: '2px 0' }} data-testid="profile-change-values">
          <span style={{ textDecoration: change.old_value ? 'line-through' : undefined, opacity: 0.7 }}>
            <ValueText value={change.old_value} />
          </span>
          <ArrowRightOutlined style={{ fontSize: 11, opacity: 0.6 }} />
          <ValueText value={change.new_value} />
        </Flex>
        <ChangeSource source={change.source} name={change.actor_name} at={change.created_at} />
      </div>
    ),
  });

  return (
    <div data-testid="profile-history">
      {picker}
      {changes.length === 0 ? (
        <Empty description={t('userProfile.history.none')} data-testid="profile-history-empty" />
      ) : (
        <Timeline items={changes.map(item)} />
      )}
      {history.hasNextPage ? (
        <Button block loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
          {t('userProfile.history.more')}
        </Button>
      ) : null}
    </div>
  );
}
