import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Layout } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { UploadPanel } from '../../features/media/upload-panel.tsx';
import { useBillingLiveConnection } from '../../shared/hooks/use-billing-live.ts';
import { Brand } from '../../shared/ui/brand.tsx';
import { FullPageSpin } from '../../shared/ui/full-page-spin.tsx';
import { useRouteHandle } from '../root.tsx';
import { useSession } from '../use-session.ts';
import { HeaderRight } from './header-right.tsx';
import { SessionState } from './session-state.tsx';
import { SiderNav } from './sider-nav.tsx';
import { SpaceSwitcher } from './space-switcher.tsx';

const SIDER_WIDTH = 232;

/** Sider navigation + header + the page; the page only renders once the session is ready. */
export function MainLayout() {
  const { t } = useTranslation();
  const session = useSession();
  // The header's balance stays true while any page of the app is open: one stream per tab.
  useBillingLiveConnection();
  const [narrowed, setNarrowed] = useState(false);
  // A wide page (the workflow editor) opens with the sider hidden; the menu button shows it.
  const wide = useRouteHandle()?.wide === true;
  const [menuOnWide, setMenuOnWide] = useState(false);
  const collapsed = wide ? !menuOnWide : narrowed;
  const setCollapsed = (value: boolean) => (wide ? setMenuOnWide(!value) : setNarrowed(value));
  const screens = Grid.useBreakpoint();
  // Phones: the sider hides completely and the header drops its labels.
  const compact = !screens.md;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={SIDER_WIDTH}
        collapsible
        collapsed={collapsed}
        onCollapse={(value, type) => {
          // The window's width decides for ordinary pages; a wide page keeps its sider hidden.
          if (!(wide && type === 'responsive')) setCollapsed(value);
        }}
        breakpoint="lg"
        collapsedWidth={wide || screens.sm === false ? 0 : 80}
        trigger={null}
        style={{
          borderInlineEnd: '1px solid rgba(5, 5, 5, 0.06)',
          position: 'sticky',
          top: 0,
          height: '100vh',
          overflow: 'auto',
        }}
      >
        <Flex align="center" style={{ height: 64, padding: collapsed ? '0 24px' : '0 20px' }}>
          <Brand size={28} showName={!collapsed} />
        </Flex>
        <SiderNav collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            padding: '0 16px 0 8px',
            borderBottom: '1px solid rgba(5, 5, 5, 0.06)',
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <Flex align="center" justify="space-between" style={{ height: '100%' }} gap={8}>
            <Flex align="center" gap={4}>
              <Button
                type="text"
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                onClick={() => setCollapsed(!collapsed)}
                aria-label={collapsed ? t('layout.expandMenu') : t('layout.collapseMenu')}
              />
              {session.status === 'ready' ? <SpaceSwitcher compact={compact} /> : null}
            </Flex>
            {session.status === 'anonymous' ? null : <HeaderRight compact={compact} />}
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: wide ? 0 : compact ? 12 : 24 }}>
          {session.status === 'ready' ? (
            <Suspense fallback={<FullPageSpin />}>
              <Outlet />
            </Suspense>
          ) : (
            <SessionState status={session.status} error={session.error} retry={() => void session.retry()} />
          )}
        </Layout.Content>
      </Layout>
      {/* Uploads go on while the person moves between pages (features/media). */}
      {session.status === 'ready' ? <UploadPanel /> : null}
    </Layout>
  );
}
