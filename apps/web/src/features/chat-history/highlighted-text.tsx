import { theme } from 'antd';
import { splitHighlight } from './highlight.ts';

/** Text with every occurrence of the search keyword marked. */
export function HighlightedText({ text, keyword }: { text: string; keyword: string }) {
  const { token } = theme.useToken();
  // Each part is keyed by where it starts in the text: unique, and stable while the text is.
  let offset = 0;
  return (
    <>
      {splitHighlight(text, keyword).map((part) => {
        const start = offset;
        offset += part.text.length;
        return part.hit ? (
          <mark
            key={start}
            data-testid="chat-keyword-hit"
            style={{ background: token.colorWarningBorder, color: 'inherit', padding: 0, borderRadius: 2 }}
          >
            {part.text}
          </mark>
        ) : (
          <span key={start}>{part.text}</span>
        );
      })}
    </>
  );
}
