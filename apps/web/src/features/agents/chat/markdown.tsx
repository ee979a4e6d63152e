import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import type { Citation } from '@athena/contract';
import { Button, Tooltip } from 'antd';
import { type ComponentProps, memo, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { copyText as copyToClipboard } from '../../../lib/copy-text.ts';
import { CitationChip } from './citation-chip.tsx';
import { CITATION_ELEMENT, remarkCitations } from './citations.ts';
import { safeUrl } from './safe-url.ts';

/** A fenced code block: the language and a copy button above dark, highlighted code. */
function CodeBlock({ children, node: _node, ...rest }: ComponentProps<'pre'> & { node?: unknown }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const child = Array.isArray(children) ? children[0] : children;
  const className: string =
    typeof child === 'object' && child !== null && 'props' in child
      ? String((child.props as { className?: string }).className ?? '')
      : '';
  const language = /language-([\w+#.-]+)/.exec(className)?.[1] ?? '';
  const copy = async () => {
    if (await copyToClipboard(ref.current?.innerText ?? '')) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <div className="athena-md-code" data-testid="md-code-block" data-language={language}>
      <div className="athena-md-code-bar">
        <span>{language || 'text'}</span>
        <Tooltip title={copied ? t('agents.copied') : t('agents.copy')}>
          <Button
            type="text"
            size="small"
            icon={copied ? <CheckOutlined /> : <CopyOutlined />}
            onClick={() => void copy()}
            aria-label={t('agents.copy')}
            className="athena-md-code-copy"
          />
        </Tooltip>
      </div>
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}

const COMPONENTS: Components = {
  // Links leave the app: a new tab that gets no handle on this window.
  a: ({ node: _node, children, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  pre: CodeBlock,
  table: ({ node: _node, ...props }) => (
    <div className="athena-md-table">
      <table {...props} />
    </div>
  ),
};

const REMARK = [remarkGfm];
// Only fenced blocks that name their language are highlighted (guessing is slow and often wrong).
const REHYPE = [[rehypeHighlight, { detect: false }]] as ComponentProps<typeof ReactMarkdown>['rehypePlugins'];

const NO_CITATIONS: Citation[] = [];

/** The plugins and components for an answer with sources: its [n] markers become chips. */
function useCitationRendering(citations: Citation[]) {
  return useMemo(() => {
    if (citations.length === 0) return { remark: REMARK, components: COMPONENTS };
    const byMarker = new Map(citations.map((citation) => [citation.marker, citation]));
    const chip = ({ marker }: { marker?: string }) => {
      const citation = byMarker.get(Number(marker));
      return citation ? <CitationChip citation={citation} /> : `[${marker}]`;
    };
    return {
      remark: [...REMARK, remarkCitations(new Set(byMarker.keys()))],
      // The chip element is ours (see citations.ts), so it is not among the HTML tags Components lists.
      components: { ...COMPONENTS, [CITATION_ELEMENT]: chip } as Components,
    };
  }, [citations]);
}

/**
 * Model output as Markdown (GFM tables, lists, code with highlighting). Safe by construction: raw
 * HTML is not rendered (react-markdown's default, no rehype-raw), and URLs pass `safeUrl`, which
 * keeps only http(s) and mailto. With `citations`, [n] markers of those sources render as chips.
 */
export const Markdown = memo(function Markdown({
  text,
  testId,
  citations = NO_CITATIONS,
}: {
  text: string;
  testId?: string;
  citations?: Citation[];
}) {
  const { remark, components } = useCitationRendering(citations);
  return (
    <div className="athena-md" data-testid={testId}>
      <ReactMarkdown remarkPlugins={remark} rehypePlugins={REHYPE} urlTransform={safeUrl} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
