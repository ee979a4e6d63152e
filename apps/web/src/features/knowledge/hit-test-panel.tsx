import { AimOutlined, FileTextOutlined, InfoCircleOutlined } from '@ant-design/icons';
import {
  ERRORS,
  type KnowledgeBase,
  knowledgeRoutes,
  type RouteData,
  type ScoreKind,
  type SearchHit,
} from '@athena/contract';
import { Alert, Button, Card, Checkbox, Empty, Flex, Form, Input, Tag, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { buildHref } from '../../lib/navigation.ts';
import { type BaseFormValues, fromBase } from './base-form-values.ts';
import { RetrievalFields } from './retrieval-fields.tsx';
import { SegmentText } from './segment-text.tsx';

/** `kind`: what the scores are (the server says), rank fusion or one retriever's own score. */
type Result = RouteData<typeof knowledgeRoutes.search> & { requested: BaseFormValues['mode']; kind: ScoreKind };
type HitForm = Pick<BaseFormValues, 'mode' | 'top_k' | 'use_threshold' | 'threshold'> & {
  query: string;
  override: boolean;
};

/** "0.83" — scores are 0–1. */
export const formatScore = (score: number) => score.toFixed(2);

/**
 * Each retriever's own rank and raw score ("全文 #2 · 0.29"). In hybrid mode these are the
 * scores that mean something about the text, so they carry the colour; in a single-retriever mode
 * the score tag already shows that retriever's score and the badge says only the rank.
 */
function FoundBy({ hit, kind }: { hit: SearchHit; kind: ScoreKind }) {
  const { t } = useTranslation();
  return (
    <>
      {hit.found_by.map((found) => {
        const values = {
          retriever: t(`knowledge.hitTest.retrievers.${found.retriever}`),
          rank: found.rank,
          score: formatScore(found.score),
        };
        return (
          <Tooltip key={found.retriever} title={t('knowledge.hitTest.foundByHelp', values)}>
            <Tag
              variant="outlined"
              color={found.retriever === 'vector' ? 'purple' : 'cyan'}
              data-testid="hit-found-by"
              data-retriever={found.retriever}
              style={{ marginInlineEnd: 0, fontVariantNumeric: 'tabular-nums' }}
            >
              {kind === 'fusion' ? t('knowledge.hitTest.foundBy', values) : t('knowledge.hitTest.foundByRank', values)}
            </Tag>
          </Tooltip>
        );
      })}
    </>
  );
}

/**
 * The score the results are ranked (and a threshold is applied) by, named for what it is: in
 * hybrid mode a reciprocal-rank-fusion score (from ranks, not a similarity), otherwise the one
 * retriever's own score. Neutral grey in hybrid mode so the raw scores beside it weigh as much.
 */
function ScoreTag({ hit, kind }: { hit: SearchHit; kind: ScoreKind }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(`knowledge.hitTest.scoreHelp.${kind}`)}>
      <Tag
        variant={kind === 'fusion' ? 'filled' : 'outlined'}
        color={kind === 'fusion' ? undefined : 'blue'}
        icon={<InfoCircleOutlined />}
        data-testid="hit-score"
        data-score-kind={kind}
        style={{ marginInlineEnd: 0, fontVariantNumeric: 'tabular-nums', cursor: 'help' }}
      >
        {t(`knowledge.hitTest.scoreLabel.${kind}`, { score: formatScore(hit.score) })}
      </Tag>
    </Tooltip>
  );
}

function HitCard({ hit, rank, kind }: { hit: SearchHit; rank: number; kind: ScoreKind }) {
  const { token } = theme.useToken();
  const segment = hit.segment;
  return (
    <Card
      size="small"
      data-testid="hit-test-result"
      data-segment-id={segment.id}
      data-score={hit.score}
      styles={{ body: { padding: 14 } }}
    >
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Flex align="center" gap={6} wrap>
            <Typography.Text strong style={{ color: token.colorPrimary }}>
              #{rank}
            </Typography.Text>
            {kind === 'fusion' ? (
              <>
                <FoundBy hit={hit} kind={kind} />
                <ScoreTag hit={hit} kind={kind} />
              </>
            ) : (
              <>
                <ScoreTag hit={hit} kind={kind} />
                <FoundBy hit={hit} kind={kind} />
              </>
            )}
          </Flex>
          <Link
            to={buildHref('knowledgeUnit', {
              params: { knowledgeId: segment.knowledge_id, unitId: segment.unit_id },
              query: { segment: segment.id },
            })}
            data-testid="hit-file"
          >
            <FileTextOutlined /> {segment.file_name}
          </Link>
        </Flex>
        <SegmentText segment={segment} clamp={6} />
      </Flex>
    </Card>
  );
}

/** The hit test: a query against this base, ranked segments with scores and which retriever found them. */
export function HitTestPanel({ base }: { base: KnowledgeBase }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<HitForm>();
  const override = Form.useWatch('override', form);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const saved = fromBase(base);

  const run = async (values: HitForm) => {
    const query = values.query.trim();
    setRunning(true);
    setError(null);
    try {
      const data = await api(knowledgeRoutes.search, {
        knowledge_id: base.id,
        query,
        ...(values.override
          ? {
              retrieval: {
                mode: values.mode,
                top_k: values.top_k,
                score_threshold: values.use_threshold ? values.threshold : null,
              },
            }
          : {}),
      });
      setResult({
        ...data,
        requested: values.override ? values.mode : saved.mode,
        kind: data.score_kind,
      });
    } catch (caught) {
      setError(errorNotice(caught));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Flex gap={16} wrap align="flex-start" data-testid="hit-test">
      <Card size="small" style={{ flex: '1 1 320px', maxWidth: 440 }} styles={{ body: { padding: 16 } }}>
        <Form<HitForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ query: '', override: false, ...saved }}
          onFinish={(values) => void run(values)}
        >
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
            {t('knowledge.hitTest.intro')}
          </Typography.Paragraph>
          <Form.Item
            name="query"
            label={t('knowledge.hitTest.query')}
            rules={[{ required: true, whitespace: true, message: ERRORS.QUERY_REQUIRED.msg[currentLocale()] }]}
          >
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              maxLength={1000}
              showCount
              placeholder={t('knowledge.hitTest.placeholder')}
              data-testid="hit-test-query"
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) form.submit();
              }}
            />
          </Form.Item>
          <Form.Item name="override" valuePropName="checked" style={{ marginBottom: override ? 8 : 16 }}>
            <Checkbox data-testid="hit-test-override">{t('knowledge.hitTest.override')}</Checkbox>
          </Form.Item>
          {override ? <RetrievalFields testPrefix="hit-test" /> : null}
          {override ? null : (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="hit-test-saved-settings">
              {t('knowledge.hitTest.usingSaved', {
                mode: t(`knowledge.retrieval.modes.${saved.mode}`),
                topK: saved.top_k,
              })}
            </Typography.Paragraph>
          )}
          <Button
            type="primary"
            htmlType="submit"
            icon={<AimOutlined />}
            loading={running}
            block
            data-testid="hit-test-run"
          >
            {t('knowledge.hitTest.run')}
          </Button>
        </Form>
      </Card>
      <Flex vertical gap={12} style={{ flex: '2 1 420px', minWidth: 0 }} data-testid="hit-test-results">
        {error ? <Alert type="error" showIcon title={error} data-testid="hit-test-error" /> : null}
        {result ? (
          <>
            <Typography.Text type="secondary" data-testid="hit-test-summary" data-took={result.took_ms}>
              {t('knowledge.hitTest.summary', {
                count: result.items.length,
                mode: t(`knowledge.retrieval.modes.${result.mode}`),
                ms: Math.round(result.took_ms),
              })}
            </Typography.Text>
            {result.mode !== result.requested && result.mode === 'fulltext' ? (
              <Alert type="info" showIcon title={t('knowledge.hitTest.fellBack')} data-testid="hit-test-fallback" />
            ) : null}
            {result.items.length === 0 ? (
              <Card>
                <Empty data-testid="hit-test-none" description={t('knowledge.hitTest.none')} />
              </Card>
            ) : (
              result.items.map((hit, index) => (
                <HitCard key={hit.segment.id} hit={hit} rank={index + 1} kind={result.kind} />
              ))
            )}
          </>
        ) : running ? null : (
          <Card>
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              data-testid="hit-test-idle"
              description={t('knowledge.hitTest.idle')}
            />
          </Card>
        )}
      </Flex>
    </Flex>
  );
}
