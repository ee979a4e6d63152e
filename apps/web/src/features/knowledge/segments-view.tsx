import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { type KnowledgeBase, type KnowledgeUnit, knowledgeRoutes, type Segment } from '@athena/contract';
import { Alert, App, Button, Card, Empty, Flex, Input, Pagination, Skeleton, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { useSegments } from './knowledge-queries.ts';
import { SegmentCard } from './segment-card.tsx';
import { useSegmentCommands } from './segment-commands.ts';
import { SegmentEditModal } from './segment-edit-modal.tsx';
import { locateSegment, pageOfIndex, SEGMENT_PAGE_SIZE } from './segment-locate.ts';

interface Props {
  base: KnowledgeBase;
  spaceId: string;
  /** One unit's segments, or null for the whole base's. */
  unit: KnowledgeUnit | null;
  /** Where "Add segment" may put a new one (the unit itself, or the base's indexed files). */
  addTargets: KnowledgeUnit[];
  canEdit: boolean;
  emptyText: string;
}

/**
 * Segments in file order, 20 a page, with search, and the card actions. `?segment=<id>` opens the
 * page that segment is on, scrolls to it and outlines it.
 */
export function SegmentsView({ base, spaceId, unit, addTargets, canEdit, emptyText }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const target = params.get('segment');
  const [search, setSearch] = useState('');
  const keyword = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const [locating, setLocating] = useState(Boolean(target));
  const [editor, setEditor] = useState<{ session: number; open: boolean; segment: Segment | null }>({
    session: 0,
    open: false,
    segment: null,
  });
  const commands = useSegmentCommands(spaceId, base.id);
  const list = useSegments(
    spaceId,
    { knowledgeId: base.id, unitId: unit?.id, keyword, page, pageSize: SEGMENT_PAGE_SIZE },
    !locating,
  );
  const cards = useRef(new Map<string, HTMLDivElement>());
  const scrolledFor = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new target (or place) starts a new search.
  useEffect(() => {
    if (!target) {
      setLocating(false);
      return;
    }
    let cancelled = false;
    setLocating(true);
    scrolledFor.current = null;
    const fetchPage = (p: number, size: number) =>
      api(knowledgeRoutes.segmentList, {
        knowledge_id: base.id,
        ...(unit ? { unit_id: unit.id } : {}),
        page: p,
        page_size: size,
      });
    locateSegment(fetchPage, target)
      .then((index) => {
        if (cancelled) return;
        if (index === null) void message.warning(t('knowledge.segments.targetGone'));
        else {
          setSearch('');
          setPage(pageOfIndex(index));
        }
      })
      .catch(() => {})
      .finally(() => {
        if (!cancelled) setLocating(false);
      });
    return () => {
      cancelled = true;
    };
  }, [target, base.id, unit?.id]);

  const items = list.data?.items ?? [];
  // Once the target's page is on screen, bring the segment into view (once per target).
  useEffect(() => {
    if (!target || scrolledFor.current === target) return;
    const card = cards.current.get(target);
    if (!card) return;
    scrolledFor.current = target;
    card.scrollIntoView({ block: 'center', behavior: 'smooth' });
  });

  const openEditor = (segment: Segment | null) => setEditor((s) => ({ session: s.session + 1, open: true, segment }));

  let body: React.ReactNode;
  if (locating) {
    body = (
      <Flex justify="center" align="center" gap={8} style={{ padding: 32 }} data-testid="segments-locating">
        <Spin />
        <Typography.Text type="secondary">{t('knowledge.segments.locating')}</Typography.Text>
      </Flex>
    );
  } else if (list.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="segments-loading" />;
  } else if (list.isError && items.length === 0) {
    body = (
      <Alert
        type="error"
        showIcon
        data-testid="segments-error"
        title={t('knowledge.segments.loadFailed')}
        description={errorText(list.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (items.length === 0) {
    body = (
      <Empty
        data-testid={keyword ? 'segments-no-match' : 'segments-empty'}
        description={keyword ? t('knowledge.segments.noMatch', { keyword }) : emptyText}
        style={{ padding: '24px 0' }}
      />
    );
  } else {
    body = (
      <Flex vertical gap={12} data-testid="segments-list" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
        {items.map((segment) => (
          <SegmentCard
            key={segment.id}
            ref={(node) => {
              if (node) cards.current.set(segment.id, node);
              else cards.current.delete(segment.id);
            }}
            segment={segment}
            keyword={keyword}
            showFile={unit === null}
            highlighted={segment.id === target}
            vectors={base.embedding_model_key_id !== null}
            manage={
              canEdit
                ? {
                    busy: commands.busyId === segment.id,
                    onToggle: (enabled) => void commands.setEnabled(segment, enabled),
                    onEdit: () => openEditor(segment),
                    onDelete: () => commands.remove(segment),
                  }
                : null
            }
          />
        ))}
      </Flex>
    );
  }

  const total = list.data?.total ?? 0;
  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('knowledge.segments.search')}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            style={{ width: 280 }}
            maxLength={100}
            data-testid="segments-search"
          />
          <Flex align="center" gap={12}>
            {list.data ? (
              <Typography.Text type="secondary" data-testid="segments-total">
                {t('knowledge.segments.total', { count: total })}
              </Typography.Text>
            ) : null}
            {canEdit && addTargets.length > 0 ? (
              <Button icon={<PlusOutlined />} onClick={() => openEditor(null)} data-testid="segment-add">
                {t('knowledge.segments.add')}
              </Button>
            ) : null}
          </Flex>
        </Flex>
        {body}
        {total > SEGMENT_PAGE_SIZE && !locating ? (
          <Pagination
            align="center"
            current={page}
            pageSize={SEGMENT_PAGE_SIZE}
            total={total}
            showSizeChanger={false}
            onChange={(next) => {
              setPage(next);
              window.scrollTo({ top: 0, behavior: 'smooth' });
            }}
            data-testid="segments-pagination"
          />
        ) : null}
      </Flex>
      {canEdit ? (
        <SegmentEditModal
          key={editor.session}
          open={editor.open}
          spaceId={spaceId}
          knowledgeId={base.id}
          segment={editor.segment}
          units={addTargets}
          defaultKind={unit?.table_mode?.mode === 'qa' ? 'qa' : 'content'}
          onClose={() => setEditor((s) => ({ ...s, open: false }))}
        />
      ) : null}
    </Card>
  );
}
