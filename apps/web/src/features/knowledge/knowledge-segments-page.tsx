import { Card, Flex, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { BackTitle } from './back-title.tsx';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { useKnowledgeBase, useUnitPolling } from './knowledge-queries.ts';
import { LoadFailed } from './load-state.tsx';
import { SegmentsView } from './segments-view.tsx';

/** /knowledge/:knowledgeId/segments — every segment of the base, each naming its file. */
export function KnowledgeSegmentsPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { knowledgeId = '' } = useParams();
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  const base = useKnowledgeBase(spaceId, knowledgeId);
  const units = useUnitPolling(spaceId, knowledgeId);
  const may = useKnowledgePermissions(base.data);
  const toBase = () => go('knowledgeDetail', { params: { knowledgeId } });

  if (base.isPending || !spaceId) {
    return (
      <Card data-testid="segments-page-loading">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (base.isError) {
    return (
      <LoadFailed
        error={base.error}
        title={t('knowledge.loadOneFailed')}
        missingText={t('knowledge.notFound')}
        backLabel={t('knowledge.backToList')}
        onBack={() => go('knowledge')}
        onRetry={() => void base.refetch()}
        testId="segments-page"
      />
    );
  }

  return (
    <Flex vertical gap={16} data-testid="page-knowledgeSegments">
      <BackTitle
        title={t('routes.knowledgeSegments')}
        subtitle={`${base.data.name} · ${t('knowledge.counts', {
          units: base.data.unit_count,
          segments: base.data.segment_count,
        })}`}
        backLabel={t('knowledge.backToBase')}
        onBack={toBase}
      />
      <SegmentsView
        base={base.data}
        spaceId={spaceId}
        unit={null}
        addTargets={(units.data?.items ?? []).filter((unit) => unit.status === 'indexed')}
        canEdit={may.edit}
        emptyText={t('knowledge.segments.emptyBase')}
      />
    </Flex>
  );
}
