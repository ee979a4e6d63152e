import { theme } from 'antd';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { ChatHistoryView } from './chat-history-view.tsx';
import { SessionGate } from './session-gate.tsx';

/**
 * /only-chat-history — the same page without the app's navigation, to embed in another system's
 * iframe. The session may come in the address (`?token=…&spaceId=…`), which main.tsx stores and
 * hides before anything renders.
 */
export function OnlyChatHistoryPage() {
  const { token } = theme.useToken();
  return (
    <div
      style={{ height: '100vh', padding: 12, boxSizing: 'border-box', background: token.colorBgLayout }}
      data-testid="page-onlyChatHistory"
    >
      <SessionGate>
        <ChatHistoryView title={null} extra={<LanguageSwitcher compact />} />
      </SessionGate>
    </div>
  );
}
