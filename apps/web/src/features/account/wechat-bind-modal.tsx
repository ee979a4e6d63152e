import { CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal, QRCode, type QRCodeProps, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { isExternalUrl, openExternal } from '../../lib/navigation.ts';
import { usePlatformInfo } from '../../shared/hooks/use-platform-info.ts';
import { useWechatBind } from './use-wechat-bind.ts';

type StatusRenderInfo = Parameters<NonNullable<QRCodeProps['statusRender']>>[0];

/** The dialog body; mounted only while open, so leaving stops the polling. */
function WechatBindBody({ onBound }: { onBound: () => void }) {
  const { t } = useTranslation();
  const { status, url, error, refresh } = useWechatBind(onBound);
  const platform = usePlatformInfo();
  const isDev = platform.data?.wechat_provider === 'dev';

  if (status === 'error') {
    return (
      <Flex vertical gap={16} align="center" style={{ padding: '16px 0' }}>
        <Alert type="error" showIcon title={error} data-testid="wechat-bind-error" style={{ width: '100%' }} />
        <Button data-testid="wechat-bind-refresh" icon={<ReloadOutlined />} onClick={refresh}>
          {t('common.retry')}
        </Button>
      </Flex>
    );
  }

  const renderStatus = (info: StatusRenderInfo) => {
    if (info.status === 'loading') return <Spin />;
    if (info.status === 'scanned') {
      return (
        <Flex vertical align="center" gap={8}>
          <CheckCircleFilled style={{ fontSize: 32, color: '#52c41a' }} />
          <strong>{t('account.wechatLinking')}</strong>
        </Flex>
      );
    }
    return (
      <Flex vertical align="center" gap={8}>
        <strong>{t('login.wechatExpired')}</strong>
        <Button data-testid="wechat-bind-refresh" type="primary" icon={<ReloadOutlined />} onClick={refresh}>
          {t('login.wechatRefresh')}
        </Button>
      </Flex>
    );
  };

  const qrStatus = status === 'done' ? 'scanned' : status;
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '8px 0' }}>
      <QRCode
        data-testid="wechat-bind-qr"
        data-status={status}
        value={url || '-'}
        size={200}
        status={qrStatus}
        statusRender={renderStatus}
        onRefresh={refresh}
      />
      <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
        {t('account.wechatBindHint')}
      </Typography.Text>
      {error ? (
        <Alert type="warning" showIcon title={error} data-testid="wechat-bind-error" style={{ width: '100%' }} />
      ) : null}
      {isDev && status === 'active' && isExternalUrl(url) ? (
        <a
          data-testid="wechat-bind-dev-link"
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

export function WechatBindModal({
  open,
  onClose,
  onBound,
}: {
  open: boolean;
  onClose: () => void;
  onBound: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('account.wechatBindTitle')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={360}
    >
      <div data-testid="wechat-bind-modal">{open ? <WechatBindBody onBound={onBound} /> : null}</div>
    </Modal>
  );
}
