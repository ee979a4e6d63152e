import { Flex, theme } from 'antd';
import { Navigate, useSearchParams } from 'react-router';
import { useUserStore } from '../../stores/user-store.ts';
import { LoginPanel } from './login-panel.tsx';

/** /login and /prodlogin: the same form as a page. Signed-in visitors go on to the dashboard. */
export function LoginPage() {
  const token = useUserStore((s) => s.token);
  const { token: design } = theme.useToken();
  const [searchParams] = useSearchParams();
  if (token && !searchParams.get('from')) return <Navigate to="/dashboard" replace />;
  return (
    <Flex
      align="center"
      justify="center"
      style={{
        minHeight: '100vh',
        padding: 16,
        background: 'linear-gradient(180deg, #eef2ff 0%, #f5f6fa 55%)',
      }}
    >
      {/* A plain box rather than antd Card: Card pulls Tabs into the budgeted /login bundle. */}
      <div
        data-testid="login-page"
        style={{
          width: '100%',
          maxWidth: 440,
          boxSizing: 'border-box',
          padding: 32,
          background: design.colorBgContainer,
          borderRadius: design.borderRadiusLG * 1.5,
          boxShadow: '0 12px 40px rgba(30, 41, 59, 0.08)',
        }}
      >
        <LoginPanel />
      </div>
    </Flex>
  );
}
