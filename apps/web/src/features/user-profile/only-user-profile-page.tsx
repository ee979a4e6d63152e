import { theme } from 'antd';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { SessionGate } from '../chat-history/session-gate.tsx';
import { UserProfileView } from './user-profile-view.tsx';

/**
 * /only-user-profile — the same page without the app's navigation, to embed in another system's
 * iframe, exactly like /only-chat-history: the session may come in the address
 * (`?token=…&spaceId=…`), which main.tsx stores and hides before anything renders.
 */
export function OnlyUserProfilePage() {
  const { token } = theme.useToken();
  return (
    <div
      style={{ minHeight: '100vh', padding: 12, boxSizing: 'border-box', background: token.colorBgLayout }}
      data-testid="page-onlyUserProfile"
    >
      <SessionGate>
        <UserProfileView title={null} extra={<LanguageSwitcher compact />} />
      </SessionGate>
    </div>
  );
}
