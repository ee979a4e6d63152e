import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { BackTitle } from './back-title.tsx';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { useKnowledgeBase, useUnitPolling } from './knowledge-queries.ts';
import { baseGate } from './load-state.tsx';
import { SegmentsView } from './segments-view.tsx';

/** /knowledge/:knowledgeId/segments — every segment of the base, each naming its file. */
export function KnowledgeSegmentsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { knowledgeId = '' } = useParams();
  const spaceId = useSpaceId();
  const base = useKnowledgeBase(spaceId, knowledgeId);
  const units = useUnitPolling(spaceId, knowledgeId);
  const may = useKnowledgePermissions(base.data);
  const toBase = () => go('knowledgeDetail', { params: { knowledgeId } });

  const gate = baseGate(base, {
    ready: Boolean(spaceId),
    testId: 'segments-page',
    onBack: () => go('knowledge'),
    t,
  });
  if (gate.view || !spaceId) return gate.view;
  const data = gate.data;

  return (
    <Flex vertical gap={16} data-testid="page-knowledgeSegments">
      <BackTitle
        title={t('routes.knowledgeSegments')}
        subtitle={`${data.name} · ${t('knowledge.counts', {
          units: data.unit_count,
          segments: data.segment_count,
        })}`}
        backLabel={t('knowledge.backToBase')}
        onBack={toBase}
      />
      <SegmentsView
        base={data}
        spaceId={spaceId}
        unit={null}
        addTargets={(units.data?.items ?? []).filter((unit) => unit.status === 'indexed')}
        canEdit={may.edit}
        emptyText={t('knowledge.segments.emptyBase')}
      />
    </Flex>
  );
}
