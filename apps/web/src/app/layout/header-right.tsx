import { LogoutOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { signOut } from '../../lib/session.ts';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { useUserStore } from '../../stores/user-store.ts';

/** The current team's balance, kept live by the billing stream (main layout); opens the fees center. */
function HeaderBalance() {
  const { t } = useTranslation();
  const go = useGo();
  const balance = useUserStore((s) => (s.team ? s.balance : null));
  if (balance === null) return null;
  return (
    <Button
      type="text"
      size="small"
      icon={<WalletOutlined />}
      onClick={() => go('feesCenter')}
      data-testid="header-balance"
      data-balance={balance}
      aria-label={t('header.balance')}
      title={t('header.balance')}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {formatFen(balance, currentLocale())}
    </Button>
  );
}

/** The balance, language switcher and the user menu (nickname, account, sign out). */
export function HeaderRight({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const go = useGo();
  const user = useUserStore((s) => s.userinfo);
  const [signingOut, setSigningOut] = useState(false);

  return (
    <Flex align="center" gap={8}>
      <HeaderBalance />
      <LanguageSwitcher compact={compact} />
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            {
              key: 'account',
              icon: <UserOutlined />,
              label: <span data-testid="user-menu-account">{t('header.account')}</span>,
            },
            { type: 'divider' },
            {
              key: 'signOut',
              icon: <LogoutOutlined />,
              danger: true,
              label: <span data-testid="sign-out">{t('header.signOut')}</span>,
            },
          ],
          onClick: async ({ key }) => {
            if (key === 'account') go('account');
            if (key === 'signOut') {
              setSigningOut(true);
              await signOut();
              setSigningOut(false);
            }
          },
        }}
      >
        <Button type="text" loading={signingOut} data-testid="user-menu" style={{ height: 40, paddingInline: 8 }}>
          <Avatar size={28} src={user?.avatar_url ?? undefined} icon={<UserOutlined />} />
          {compact ? null : (
            <Typography.Text ellipsis style={{ maxWidth: 160 }} data-testid="user-menu-nickname">
              {user?.nickname ?? ''}
            </Typography.Text>
          )}
        </Button>
      </Dropdown>
    </Flex>
  );
}
