import { LogoutOutlined, UserOutlined, WalletOutlined, WarningOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBillingSummary } from '../../features/billing/billing-queries.ts';
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
  const { token } = theme.useToken();
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  const balance = useUserStore((s) => (s.team ? s.balance : null));
  // The team's own threshold: below it the balance shows in the warning colour on every page.
  const threshold = useBillingSummary(spaceId).data?.low_balance_threshold ?? null;
  if (balance === null) return null;
  const low = threshold !== null && balance < threshold;
  const label = low
    ? t('header.balanceLow', { threshold: formatFen(threshold, currentLocale()) })
    : t('header.balance');
  return (
    <Button
      type="text"
      size="small"
      icon={low ? <WarningOutlined /> : <WalletOutlined />}
      onClick={() => go('feesCenter')}
      data-testid="header-balance"
      data-balance={balance}
      data-low={low ? 'true' : 'false'}
      aria-label={label}
      title={label}
      style={{ fontVariantNumeric: 'tabular-nums', color: low ? token.colorWarning : undefined }}
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
