import {
  ApiOutlined,
  AppstoreOutlined,
  BookOutlined,
  BranchesOutlined,
  CommentOutlined,
  CopyOutlined,
  DashboardOutlined,
  IdcardOutlined,
  KeyOutlined,
  MessageOutlined,
  PictureOutlined,
  RobotOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';
import { COMING_ROUTES, isRouteName, NAV_GROUPS, navKeyOf, ROUTES, type RouteName } from '../../lib/route-table.ts';
import { useRouteHandle } from '../root.tsx';

const ICONS: Partial<Record<RouteName, ReactNode>> = {
  dashboard: <DashboardOutlined />,
  agents: <MessageOutlined />,
  apps: <AppstoreOutlined />,
  aiWorkflows: <BranchesOutlined />,
  workflowTemplates: <CopyOutlined />,
  plugin: <ApiOutlined />,
  aiSoftware: <ShopOutlined />,
  customAiBusiness: <RobotOutlined />,
  knowledge: <BookOutlined />,
  medialib: <PictureOutlined />,
  teamCenter: <TeamOutlined />,
  feesCenter: <WalletOutlined />,
  authCenter: <KeyOutlined />,
  account: <UserOutlined />,
  settings: <SettingOutlined />,
  chatHistory: <CommentOutlined />,
  userProfile: <IdcardOutlined />,
};

const isComing = (name: RouteName) => (COMING_ROUTES as readonly RouteName[]).includes(name);

/** The sider navigation, grouped as a person thinks about the product. */
export function SiderNav({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const go = useGo();
  const handle = useRouteHandle();
  const selected = handle ? navKeyOf(handle.name) : undefined;

  const items: MenuProps['items'] = NAV_GROUPS.map((group) => ({
    type: 'group' as const,
    key: group.key,
    label: collapsed ? null : t(group.title),
    children: group.items.map((name) => ({
      key: name,
      icon: ICONS[name],
      label: (
        <span data-testid={`nav-${name}`}>
          {t(ROUTES[name].title)}
          {isComing(name) && !collapsed ? (
            <Tag bordered={false} color="purple" style={{ marginInlineStart: 8 }} data-testid={`coming-tag-${name}`}>
              {t('common.comingSoon')}
            </Tag>
          ) : null}
        </span>
      ),
    })),
  }));

  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected] : []}
      onClick={({ key }) => {
        if (isRouteName(key)) go(key);
      }}
      style={{ borderInlineEnd: 'none' }}
    />
  );
}
