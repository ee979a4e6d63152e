import { MessageOutlined, MobileOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, App, Flex, Segmented, Spin, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { completeSignIn } from '../../lib/session.ts';
import { usePlatformInfo } from '../../shared/hooks/use-platform-info.ts';
import { Brand } from '../../shared/ui/brand.tsx';
import { BindPhoneForm } from './bind-phone-form.tsx';
import { LoginLanguage } from './login-language.tsx';
import { SmsLoginForm } from './sms-login-form.tsx';

// The WeChat QR (antd's QRCode and the polling hook, ~9 KB gzipped) loads when that tab is chosen:
// SMS is the default, and /login has a size budget (docs/benchmarks.md, "Web").
const WechatLogin = lazy(() => import('./wechat-login.tsx').then((module) => ({ default: module.WechatLogin })));

type Mode = 'sms' | 'wechat' | 'bind';

/** The sign-in form (SMS code by default, WeChat QR, then bind-phone), shared by the login modal and /login. */
export function LoginPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [searchParams] = useSearchParams();
  const embeddedFrom = searchParams.get('from');
  const [mode, setMode] = useState<Mode>('sms');
  const [bindToken, setBindToken] = useState('');
  const [embeddedDone, setEmbeddedDone] = useState(false);
  const platform = usePlatformInfo();
  const { token: design } = theme.useToken();

  const onSignedIn = (token: string) => {
    if (embeddedFrom) {
      // Embedded use: the host page owns the session, so hand it the token and stay put.
      window.parent.postMessage({ type: 'athena:login', token }, '*');
      setEmbeddedDone(true);
      return;
    }
    completeSignIn(token);
  };

  if (embeddedDone) {
    return <Alert type="success" showIcon title={t('login.embeddedDone')} data-testid="login-embedded-done" />;
  }

  const title = mode === 'bind' ? t('login.bindTitle') : t('login.title');
  const subtitle = mode === 'bind' ? t('login.bindSubtitle') : t('login.subtitle');

  return (
    <div data-testid="login-panel" data-mode={mode}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 20 }}>
        <Brand size={28} />
        <LoginLanguage />
      </Flex>
      {/* Plain elements, not antd Typography: it is heavy and /login has a size budget. */}
      <h2 style={{ margin: 0, fontSize: design.fontSizeHeading3, fontWeight: 600, color: design.colorText }}>
        {title}
      </h2>
      <p style={{ marginTop: 4, marginBottom: 20, color: design.colorTextSecondary }}>{subtitle}</p>
      {mode !== 'bind' ? (
        <Segmented<Mode>
          block
          value={mode}
          onChange={(value) => setMode(value)}
          style={{ marginBottom: 20 }}
          options={[
            {
              value: 'sms',
              icon: <MobileOutlined />,
              label: <span data-testid="login-mode-sms">{t('login.modeSms')}</span>,
            },
            {
              value: 'wechat',
              icon: <WechatOutlined />,
              label: <span data-testid="login-mode-wechat">{t('login.modeWechat')}</span>,
            },
          ]}
        />
      ) : null}
      {mode === 'sms' ? (
        <SmsLoginForm
          onSignedIn={onSignedIn}
          hint={
            <p style={{ marginTop: 12, marginBottom: 0, fontSize: 13, color: design.colorTextSecondary }}>
              {t('login.newUserHint')}
              {platform.data?.sms_provider === 'dev' ? (
                <>
                  <br />
                  <MessageOutlined /> {t('login.devSmsHint')}
                </>
              ) : null}
            </p>
          }
        />
      ) : null}
      {mode === 'wechat' ? (
        <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
          <WechatLogin
            onSignedIn={onSignedIn}
            onNeedBindPhone={(loginToken) => {
              setBindToken(loginToken);
              setMode('bind');
            }}
          />
        </Suspense>
      ) : null}
      {mode === 'bind' ? (
        <BindPhoneForm
          loginToken={bindToken}
          onSignedIn={onSignedIn}
          onRestart={(reason) => {
            if (reason) void message.warning(reason);
            setBindToken('');
            setMode('wechat');
          }}
        />
      ) : null}
    </div>
  );
}
