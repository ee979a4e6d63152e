import { type KnowledgeUnit, knowledgeRoutes } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshBase } from './knowledge-queries.ts';

/** Puts a changed unit into the cached list at once, so the row moves before the next poll. */
function placeUnit(spaceId: string | null, unit: KnowledgeUnit) {
  queryClient.setQueryData<{ items: KnowledgeUnit[] }>(queryKeys.knowledge.units(spaceId, unit.knowledge_id), (data) =>
    data ? { items: data.items.map((item) => (item.id === unit.id ? unit : item)) } : data,
  );
  queryClient.setQueryData(queryKeys.knowledge.unit(spaceId, unit.id), unit);
}

/** Cancel, retry and delete a unit; the list (and its polling) follows the answer. */
export function useUnitCommands(spaceId: string | null, knowledgeId: string) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const cancelUnit = useApiMutation(knowledgeRoutes.unitCancel);
  const retryUnit = useApiMutation(knowledgeRoutes.unitRetry);
  const deleteUnit = useApiMutation(knowledgeRoutes.unitDelete);

  const run = async (unit: KnowledgeUnit, call: () => Promise<KnowledgeUnit>, done: string) => {
    setBusyId(unit.id);
    try {
      placeUnit(spaceId, await call());
      void message.success(done);
    } catch {
      // The failure's notice is already showing.
    } finally {
      setBusyId(null);
      void refreshBase(spaceId, knowledgeId);
    }
  };

  const cancel = (unit: KnowledgeUnit) =>
    run(unit, () => cancelUnit.mutateAsync({ id: unit.id }), t('knowledge.units.canceled', { name: unit.file_name }));

  const retry = (unit: KnowledgeUnit) =>
    run(unit, () => retryUnit.mutateAsync({ id: unit.id }), t('knowledge.units.retried', { name: unit.file_name }));

  /** Asks first; resolves true once the unit is gone. */
  const remove = (unit: KnowledgeUnit) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('knowledge.units.deleteTitle', { name: unit.file_name }),
        content: t('knowledge.units.deleteText', { count: unit.segment_count }),
        okText: t('knowledge.units.deleteOk'),
        okButtonProps: { danger: true, 'data-testid': 'unit-delete-confirm' },
        cancelText: t('knowledge.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          try {
            await deleteUnit.mutateAsync({ id: unit.id });
            void message.success(t('knowledge.units.deleted', { name: unit.file_name }));
            await refreshBase(spaceId, knowledgeId);
            resolve(true);
          } catch {
            resolve(false);
          }
        },
      });
    });

  return { cancel, retry, remove, busyId };
}
