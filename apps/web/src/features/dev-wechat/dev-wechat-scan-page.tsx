import { UserAddOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { authRoutes } from '@athena/contract';
import { Alert, Button, Card, Divider, Flex, Input, Result, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';

type Who = 'new' | 'returning';

/**
 * The dev WeChat provider's QR opens this page: a simulated phone screen that "scans" the code
 * (dev_wechat_scan) as a new or a returning WeChat user. Never reachable with the official provider.
 */
export function DevWechatScanPage() {
  const { t } = useTranslation();
  const { code = '' } = useParams();
  const [openid, setOpenid] = useState(() => localStorage.getItem(STORAGE_KEYS.devWechatOpenid) ?? '');
  const [busy, setBusy] = useState<Who | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const scan = async (who: Who) => {
    setBusy(who);
    setError(null);
    try {
      const result = await api(
        authRoutes.devWechatScan,
        who === 'returning' ? { code, openid: openid.trim() } : { code },
      );
      localStorage.setItem(STORAGE_KEYS.devWechatOpenid, result.openid);
      setOpenid(result.openid);
      setDone(true);
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16, background: '#e9edf3' }}>
      <Card
        data-testid="dev-wechat-scan"
        style={{ width: '100%', maxWidth: 380, borderRadius: 28, boxShadow: '0 16px 48px rgba(15, 23, 42, 0.16)' }}
        styles={{ body: { padding: 24 } }}
      >
        <Flex justify="space-between" align="center">
          <Tag color="orange">{t('devWechat.badge')}</Tag>
          <LanguageSwitcher />
        </Flex>
        <Flex vertical align="center" gap={4} style={{ margin: '16px 0 8px' }}>
          <WechatOutlined style={{ fontSize: 44, color: '#07c160' }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('devWechat.title')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            {t('devWechat.intro')}
          </Typography.Text>
        </Flex>
        {done ? (
          <Result
            data-testid="dev-wechat-done"
            status="success"
            title={t('devWechat.doneTitle')}
            subTitle={t('devWechat.doneText')}
          />
        ) : (
          <Flex vertical gap={12} style={{ marginTop: 16 }}>
            {error ? <Alert type="error" showIcon title={error} data-testid="dev-wechat-error" /> : null}
            <Button
              data-testid="dev-wechat-new"
              type="primary"
              size="large"
              block
              icon={<UserAddOutlined />}
              loading={busy === 'new'}
              disabled={busy !== null}
              onClick={() => void scan('new')}
              style={{ background: '#07c160' }}
            >
              {t('devWechat.asNew')}
            </Button>
            <Divider plain style={{ margin: '4px 0' }}>
              {t('devWechat.or')}
            </Divider>
            <Input
              data-testid="dev-wechat-openid"
              size="large"
              value={openid}
              onChange={(event) => setOpenid(event.target.value)}
              placeholder={t('devWechat.openidPlaceholder')}
              maxLength={64}
              prefix={<UserOutlined />}
            />
            <Button
              data-testid="dev-wechat-returning"
              size="large"
              block
              loading={busy === 'returning'}
              disabled={busy !== null || !openid.trim()}
              onClick={() => void scan('returning')}
            >
              {t('devWechat.asReturning')}
            </Button>
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
