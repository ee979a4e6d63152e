import { FileTextOutlined, LinkOutlined } from '@ant-design/icons';
import type { Citation } from '@athena/contract';
import { App, Flex, Popover, Typography, theme } from 'antd';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buildHref } from '../../../lib/navigation.ts';

/**
 * Whether a source opens its segment in the knowledge base. True in the playground (members of
 * the team); false on the public share page, whose visitors cannot open the team's bases.
 */
export const CitationLinkContext = createContext(false);

/** The chat panel, and the layer inside it (inset a little, clipping) that citation popovers live in. */
export const CHAT_PANEL_CLASS = 'athena-chat-panel';
export const CITATION_LAYER_CLASS = 'athena-chat-popups';

/**
 * Popovers are fitted (flipped, shifted) to the clipping ancestors of their container, not to the
 * window; in the panel's layer they stay inside the chat panel with a small margin.
 */
const popupContainer = (trigger: HTMLElement) =>
  trigger.closest(`.${CHAT_PANEL_CLASS}`)?.querySelector<HTMLElement>(`:scope > .${CITATION_LAYER_CLASS}`) ??
  document.body;

/** The segment page of a cited source, scrolled to the segment. */
export const citationHref = (citation: Citation) =>
  buildHref('knowledgeUnit', {
    params: { knowledgeId: citation.knowledge_id, unitId: citation.unit_id },
    query: { segment: citation.segment_id },
  });

/** What a source says: its file, the cited text (plain text, never HTML) and where to read more. */
function CitationCard({ citation }: { citation: Citation }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const linked = useContext(CitationLinkContext);
  const { message } = App.useApp();
  return (
    <Flex vertical gap={8} style={{ minWidth: 0 }} data-testid="citation-card" data-marker={citation.marker}>
      <Flex align="center" gap={6} style={{ minWidth: 0 }}>
        <FileTextOutlined style={{ color: token.colorPrimary }} />
        <Typography.Text strong ellipsis={{ tooltip: citation.file_name }} data-testid="citation-file">
          {citation.file_name || t('agents.citations.unknownFile')}
        </Typography.Text>
      </Flex>
      <div
        data-testid="citation-snippet"
        style={{
          maxHeight: 220,
          overflowY: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 13,
          lineHeight: 1.6,
          padding: '8px 10px',
          borderRadius: 6,
          background: token.colorFillQuaternary,
          color: token.colorTextSecondary,
        }}
      >
        {citation.snippet}
      </div>
      {linked ? (
        // Toasts of the page being left (e.g. the agent editor's "Saved") do not follow to the segment.
        <Link to={citationHref(citation)} onClick={() => message.destroy()} data-testid="citation-open">
          <LinkOutlined /> {t('agents.citations.open')}
        </Link>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="citation-public-note">
          {t('agents.citations.publicNote')}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * A popover with the source, opened by clicking (or pressing Enter on) its trigger. It lives in
 * the chat panel's layer: above the marker when there is room, else below, shifted sideways to
 * stay inside the panel, and never wider than it.
 */
function CitationPopover({ citation, children }: { citation: Citation; children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Popover
      trigger="click"
      placement="top"
      getPopupContainer={popupContainer}
      title={t('agents.citations.title', { n: citation.marker })}
      content={<CitationCard citation={citation} />}
      styles={{
        // The layer clips at its sides, where a shifted popover may touch, so antd's drop shadow
        // (all around) would be cut off there: a border outlines it and a shadow falls below only.
        root: { width: 'max-content', maxWidth: 'min(360px, 100%)', pointerEvents: 'auto', filter: 'none' },
        container: {
          border: `1px solid ${token.colorBorderSecondary}`,
          boxShadow: '0 10px 16px -10px rgba(0, 0, 0, 0.25)',
        },
        arrow: { filter: `drop-shadow(0 0 1px ${token.colorBorder})` },
      }}
      destroyOnHidden
    >
      {children}
    </Popover>
  );
}

/** The [n] marker inside the answer, as a small clickable chip. */
export function CitationChip({ citation }: { citation: Citation }) {
  const { t } = useTranslation();
  return (
    <CitationPopover citation={citation}>
      <button
        type="button"
        className="athena-cite"
        data-testid="citation-chip"
        data-marker={citation.marker}
        aria-label={t('agents.citations.chipLabel', { n: citation.marker, file: citation.file_name })}
      >
        {citation.marker}
      </button>
    </CitationPopover>
  );
}

/** "Sources" under an answer: every source it was given, each opening the same card. */
export function CitationSources({ citations }: { citations: Citation[] }) {
  const { t } = useTranslation();
  if (citations.length === 0) return null;
  return (
    <Flex align="center" gap={6} wrap data-testid="citation-sources">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('agents.citations.sources')}
      </Typography.Text>
      {citations.map((citation) => (
        <CitationPopover key={citation.marker} citation={citation}>
          <button
            type="button"
            className="athena-cite-source"
            data-testid="citation-source"
            data-marker={citation.marker}
            title={citation.file_name}
          >
            <span className="athena-cite">{citation.marker}</span>
            <span className="athena-cite-source-name">{citation.file_name || t('agents.citations.unknownFile')}</span>
          </button>
        </CitationPopover>
      ))}
    </Flex>
  );
}
