import { Flex, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { highlightParts } from './segment-locate.ts';

/** A Q&A segment has a question; any other segment only content. */
export const isQa = (segment: { question: string }) => segment.question.trim().length > 0;

function Plain({ text, keyword, clamp }: { text: string; keyword?: string; clamp?: number }) {
  const { token } = theme.useToken();
  return (
    <Typography.Paragraph
      style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.65 }}
      ellipsis={clamp ? { rows: clamp, expandable: 'collapsible' } : undefined}
    >
      {keyword
        ? highlightParts(text, keyword).map((part, index) =>
            part.match ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text, in order.
              <mark key={index} style={{ background: token.colorWarningBg, padding: 0 }}>
                {part.text}
              </mark>
            ) : (
              part.text
            ),
          )
        : text}
    </Typography.Paragraph>
  );
}

/**
 * A segment's words as plain text (never HTML): question and answer for Q&A, else the content.
 * Matches of `keyword` are marked.
 */
export function SegmentText({
  segment,
  keyword,
  clamp,
}: {
  segment: { question: string; answer: string; content: string };
  keyword?: string;
  clamp?: number;
}) {
  const { t } = useTranslation();
  if (!isQa(segment)) {
    return (
      <div data-testid="segment-content">
        <Plain text={segment.content} keyword={keyword} clamp={clamp} />
      </div>
    );
  }
  return (
    <Flex vertical gap={6}>
      <Flex gap={8} align="flex-start" data-testid="segment-question">
        <Tag color="blue" bordered={false} style={{ marginInlineEnd: 0, flex: 'none' }}>
          {t('knowledge.segments.q')}
        </Tag>
        <div style={{ flex: 1, minWidth: 0, fontWeight: 500 }}>
          <Plain text={segment.question} keyword={keyword} clamp={clamp} />
        </div>
      </Flex>
      <Flex gap={8} align="flex-start" data-testid="segment-answer">
        <Tag color="green" bordered={false} style={{ marginInlineEnd: 0, flex: 'none' }}>
          {t('knowledge.segments.a')}
        </Tag>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Plain text={segment.answer} keyword={keyword} clamp={clamp} />
        </div>
      </Flex>
    </Flex>
  );
}
