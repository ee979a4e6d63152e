import { type KnowledgeBase, knowledgeRoutes } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import type { KnowledgeGroup } from './group-list.tsx';
import { refreshBase, refreshKnowledge } from './knowledge-queries.ts';

/** Deleting bases and groups and re-indexing a base, with their confirmations and messages. */
export function useBaseCommands(spaceId: string | null) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const deleteBase = useApiMutation(knowledgeRoutes.delete);
  const reindexBase = useApiMutation(knowledgeRoutes.reindex);
  const deleteGroup = useApiMutation(knowledgeRoutes.groupDelete);

  /** Asks first; resolves true once the base is gone. */
  const remove = (base: KnowledgeBase) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('knowledge.delete.title', { name: base.name }),
        content: t('knowledge.delete.text', { units: base.unit_count, segments: base.segment_count }),
        okText: t('knowledge.delete.ok'),
        okButtonProps: { danger: true, 'data-testid': 'knowledge-delete-confirm' },
        cancelText: t('knowledge.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          setBusyId(base.id);
          try {
            await deleteBase.mutateAsync({ id: base.id });
            void message.success(t('knowledge.delete.done', { name: base.name }));
            await refreshKnowledge(spaceId);
            resolve(true);
          } catch {
            resolve(false);
          } finally {
            setBusyId(null);
          }
        },
      });
    });

  const reindex = (base: KnowledgeBase) =>
    modal.confirm({
      title: t('knowledge.reindex.title', { name: base.name }),
      content: t('knowledge.reindex.text'),
      okText: t('knowledge.reindex.ok'),
      okButtonProps: { 'data-testid': 'knowledge-reindex-confirm' },
      cancelText: t('knowledge.cancel'),
      onOk: async () => {
        try {
          const { queued } = await reindexBase.mutateAsync({ id: base.id });
          void message.success(t('knowledge.reindex.done', { count: queued }));
          await refreshBase(spaceId, base.id);
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  /** Asks first; resolves true once the group is gone (its bases become ungrouped). */
  const removeGroup = (group: KnowledgeGroup) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('knowledge.groups.deleteTitle', { name: group.name }),
        content: t('knowledge.groups.deleteText', { count: group.knowledge_count }),
        okText: t('knowledge.groups.deleteOk'),
        okButtonProps: { danger: true, 'data-testid': 'group-delete-confirm' },
        cancelText: t('knowledge.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          try {
            await deleteGroup.mutateAsync({ id: group.id });
            void message.success(t('knowledge.groups.deleted', { name: group.name }));
            await refreshKnowledge(spaceId);
            resolve(true);
          } catch {
            resolve(false);
          }
        },
      });
    });

  return { remove, reindex, removeGroup, busyId };
}
