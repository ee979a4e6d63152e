import { CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, QRCode, type QRCodeProps, Spin, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { isExternalUrl, openExternal } from '../../lib/navigation.ts';
import { usePlatformInfo } from '../../shared/hooks/use-platform-info.ts';
import { useWechatLogin } from './use-wechat-login.ts';

interface Props {
  onSignedIn: (token: string) => void;
  onNeedBindPhone: (loginToken: string) => void;
}

const QR_SIZE = 200;

type StatusRenderInfo = Parameters<NonNullable<QRCodeProps['statusRender']>>[0];

/** WeChat QR sign-in (polled every 2 s until scanned): the QR, its expired overlay and, for the dev provider, a scan link. */
export function WechatLogin({ onSignedIn, onNeedBindPhone }: Props) {
  const { t } = useTranslation();
  const { status, url, error, refresh } = useWechatLogin({ onSignedIn, onNeedBindPhone });
  const platform = usePlatformInfo();
  const isDev = platform.data?.wechat_provider === 'dev';
  const { token: design } = theme.useToken();

  const renderStatus = (info: StatusRenderInfo) => {
    if (info.status === 'loading') return <Spin />;
    if (info.status === 'scanned') {
      return (
        <Flex vertical align="center" gap={8}>
          <CheckCircleFilled style={{ fontSize: 32, color: '#52c41a' }} />
          <strong>{t('login.wechatScanned')}</strong>
        </Flex>
      );
    }
    return (
      <Flex vertical align="center" gap={8} data-testid="wechat-qr-expired">
        <strong>{t('login.wechatExpired')}</strong>
        <Button data-testid="wechat-qr-refresh" type="primary" icon={<ReloadOutlined />} onClick={refresh}>
          {t('login.wechatRefresh')}
        </Button>
      </Flex>
    );
  };

  if (status === 'error') {
    return (
      <Flex vertical gap={16} align="center" style={{ padding: '16px 0' }}>
        <Alert type="error" showIcon title={error} data-testid="login-error" style={{ width: '100%' }} />
        <Button data-testid="wechat-qr-refresh" icon={<ReloadOutlined />} onClick={refresh}>
          {t('common.retry')}
        </Button>
      </Flex>
    );
  }

  // After a successful exchange the panel is about to close; keep showing "scanned" until then.
  const qrStatus = status === 'done' ? 'scanned' : status;
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '8px 0' }}>
      <QRCode
        data-testid="wechat-qr"
        data-status={qrStatus}
        value={url || '-'}
        size={QR_SIZE}
        status={qrStatus}
        statusRender={renderStatus}
        onRefresh={refresh}
      />
      <span style={{ textAlign: 'center', color: design.colorTextSecondary }}>{t('login.wechatHint')}</span>
      {error ? <Alert type="warning" showIcon title={error} style={{ width: '100%' }} /> : null}
      {isDev && status === 'active' && isExternalUrl(url) ? (
        <a
          data-testid="wechat-dev-scan-link"
          href={url}
          onClick={(event) => {
            event.preventDefault();
            openExternal(url);
          }}
        >
          {t('login.wechatOpenSimulator')}
        </a>
      ) : null}
    </Flex>
  );
}
