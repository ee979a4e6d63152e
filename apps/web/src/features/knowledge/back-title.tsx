import './back-title.css';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A line of facts ("Files: 3 · Segments: 5 · Embedding: … · Hybrid search, top 5"). Each fact
 * stays whole; the line wraps only between facts, and the dot stays with the fact before it.
 */
export function FactLine({ facts, testId }: { facts: ReactNode[]; testId?: string }) {
  return (
    <span data-testid={testId}>
      {facts.map((fact, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the facts are a fixed list in a fixed order.
        <span key={index}>
          <span
            title={typeof fact === 'string' ? fact : undefined}
            style={{
              display: 'inline-block',
              maxWidth: '100%',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
              verticalAlign: 'top',
            }}
          >
            {fact}
            {index < facts.length - 1 ? ' ·' : null}
          </span>
          {index < facts.length - 1 ? ' ' : null}
        </span>
      ))}
    </span>
  );
}

/**
 * A sub-page's head: back, the title with its tags and the page's buttons on one row, and the
 * facts below them across the full width. When the head is narrow the buttons move below the
 * facts instead of squeezing them (back-title.css).
 */
export function BackTitle({
  title,
  tags,
  subtitle,
  extra,
  backLabel,
  onBack,
}: {
  title: ReactNode;
  tags?: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
  backLabel: string;
  onBack: () => void;
}) {
  return (
    <Flex align="flex-start" gap={12}>
      <Button
        type="text"
        icon={<ArrowLeftOutlined />}
        onClick={onBack}
        aria-label={backLabel}
        title={backLabel}
        data-testid="knowledge-back"
        style={{ marginTop: 2, flex: 'none' }}
      />
      <div className="athena-back-title">
        <div className="athena-back-title-grid">
          <Flex align="center" gap={8} wrap className="athena-back-title-title">
            <Typography.Title level={3} style={{ margin: 0, minWidth: 0 }} ellipsis data-testid="page-title">
              {title}
            </Typography.Title>
            {tags}
          </Flex>
          {extra ? <div className="athena-back-title-extra">{extra}</div> : null}
          {subtitle ? (
            <Typography.Text type="secondary" className="athena-back-title-subtitle" style={{ fontSize: 13 }}>
              {subtitle}
            </Typography.Text>
          ) : null}
        </div>
      </div>
    </Flex>
  );
}
