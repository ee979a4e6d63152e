import { Grid } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { ChatHistoryView } from './chat-history-view.tsx';

/** The layout's header (64 px) and the content's padding above and below. */
const CHROME_PX = { wide: 64 + 48, compact: 64 + 24 };

/** /chat-history — the conversations of the customer-service scenes, inside the app. */
export function ChatHistoryPage() {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md;
  // The page fills the window and scrolls inside its two columns, like a chat client.
  return (
    <div style={{ height: `calc(100vh - ${wide ? CHROME_PX.wide : CHROME_PX.compact}px)`, minHeight: 480 }}>
      <ChatHistoryView title={<PageHeader title={t('routes.chatHistory')} subtitle={t('pageIntro.chatHistory')} />} />
    </div>
  );
}
