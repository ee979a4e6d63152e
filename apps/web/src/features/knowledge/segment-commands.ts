import { knowledgeRoutes, type Segment } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { useReport } from './base-commands.ts';
import { refreshBase } from './knowledge-queries.ts';

/** Switch a segment on or off and delete one; the lists and counts reload after. */
export function useSegmentCommands(spaceId: string | null, knowledgeId: string) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const report = useReport();
  const [busyId, setBusyId] = useState<string | null>(null);

  const setEnabled = async (segment: Segment, enabled: boolean) => {
    setBusyId(segment.id);
    try {
      await api(knowledgeRoutes.segmentSetEnabled, { id: segment.id, enabled });
      void message.success(enabled ? t('knowledge.segments.enabledDone') : t('knowledge.segments.disabledDone'));
      await refreshBase(spaceId, knowledgeId);
    } catch (error) {
      report(error);
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
          await api(knowledgeRoutes.segmentDelete, { id: segment.id });
          void message.success(t('knowledge.segments.deleted'));
          await refreshBase(spaceId, knowledgeId);
        } catch (error) {
          report(error);
        }
      },
    });

  return { setEnabled, remove, busyId };
}
