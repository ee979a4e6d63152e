import { knowledgeRoutes, type Segment } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshBase } from './knowledge-queries.ts';

/** Switch a segment on or off and delete one; the lists and counts reload after. */
export function useSegmentCommands(spaceId: string | null, knowledgeId: string) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const switchSegment = useApiMutation(knowledgeRoutes.segmentSetEnabled);
  const deleteSegment = useApiMutation(knowledgeRoutes.segmentDelete);

  const setEnabled = async (segment: Segment, enabled: boolean) => {
    setBusyId(segment.id);
    try {
      await switchSegment.mutateAsync({ id: segment.id, enabled });
      void message.success(enabled ? t('knowledge.segments.enabledDone') : t('knowledge.segments.disabledDone'));
      await refreshBase(spaceId, knowledgeId);
    } catch {
      // The failure's notice is already showing.
    } finally {
      setBusyId(null);
    }
  };

  const remove = (segment: Segment) =>
    modal.confirm({
      title: t('knowledge.segments.deleteTitle'),
      content: t('knowledge.segments.deleteText'),
      okText: t('knowledge.segments.deleteOk'),
      okButtonProps: { danger: true, 'data-testid': 'segment-delete-confirm' },
      cancelText: t('knowledge.cancel'),
      onOk: async () => {
        try {
          await deleteSegment.mutateAsync({ id: segment.id });
          void message.success(t('knowledge.segments.deleted'));
          await refreshBase(spaceId, knowledgeId);
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  return { setEnabled, remove, busyId };
}
