import { Flex } from 'antd';
import type { RouteName } from '../../lib/route-table.ts';
import { Brand } from '../../shared/ui/brand.tsx';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { NotAvailablePage } from './not-available-page.tsx';

/** Pages outside the main layout that are not built yet (/only-user-profile). */
export function StandalonePage({ name }: { name: RouteName }) {
  // Signed out, the login modal carries its own language switcher.
  const signedIn = useUserStore((s) => Boolean(s.token));
  return (
    <Flex vertical style={{ minHeight: '100vh', background: '#f5f6fa' }}>
      <Flex
        align="center"
        justify="space-between"
        style={{ height: 56, padding: '0 24px', background: '#fff', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}
      >
        <Brand size={26} />
        {signedIn ? <LanguageSwitcher /> : null}
      </Flex>
      <div style={{ padding: 24, maxWidth: 1100, width: '100%', margin: '0 auto' }}>
        <NotAvailablePage name={name} />
      </div>
    </Flex>
  );
}
