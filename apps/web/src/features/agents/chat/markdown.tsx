import 'highlight.js/styles/github-dark.css';
import './markdown.css';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { type ComponentProps, memo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { copyText as copyToClipboard } from '../../../lib/copy-text.ts';
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

/**
 * Model output as Markdown (GFM tables, lists, code with highlighting). Safe by construction: raw
 * HTML is not rendered (react-markdown's default, no rehype-raw), and URLs pass `safeUrl`, which
 * keeps only http(s) and mailto.
 */
export const Markdown = memo(function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="athena-md" data-testid={testId}>
      <ReactMarkdown remarkPlugins={REMARK} rehypePlugins={REHYPE} urlTransform={safeUrl} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
