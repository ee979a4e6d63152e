import { CheckOutlined, CloseOutlined, ScanOutlined } from '@ant-design/icons';
import { accountRoutes } from '@athena/contract';
import { Alert, Button, Card, Flex, Result, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';

type Outcome = 'pass' | 'fail';

/**
 * The dev real-name provider's verify_url opens this page: a stand-in for the vendor's face check
 * that lets a person pass or fail it (realname/dev_complete). Never used with a real provider.
 */
export function DevFaceidPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [busy, setBusy] = useState<Outcome | null>(null);
  const [done, setDone] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  const complete = async (outcome: Outcome) => {
    setBusy(outcome);
    setError(null);
    try {
      await api(accountRoutes.realNameDevComplete, { token, outcome });
      setDone(outcome);
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Card
        data-testid="dev-faceid"
        style={{ width: '100%', maxWidth: 400, borderRadius: 28, boxShadow: '0 16px 48px rgba(15, 23, 42, 0.16)' }}
        styles={{ body: { padding: 24 } }}
      >
        <Flex justify="space-between" align="center">
          <Tag color="orange">{t('devWechat.badge')}</Tag>
          <LanguageSwitcher />
        </Flex>
        <Flex vertical align="center" gap={4} style={{ margin: '16px 0 8px' }}>
          <ScanOutlined style={{ fontSize: 44, color: '#4f46e5' }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('faceid.devTitle')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            {t('faceid.devIntro')}
          </Typography.Text>
        </Flex>
        {done ? (
          <Result
            data-testid="dev-faceid-done"
            data-outcome={done}
            status={done === 'pass' ? 'success' : 'warning'}
            title={done === 'pass' ? t('faceid.devPassed') : t('faceid.devFailed')}
            subTitle={t('faceid.devReturn')}
          />
        ) : (
          <Flex vertical gap={12} style={{ marginTop: 16 }}>
            {error ? <Alert type="error" showIcon title={error} data-testid="dev-faceid-error" /> : null}
            <Button
              data-testid="dev-faceid-pass"
              type="primary"
              size="large"
              block
              icon={<CheckOutlined />}
              loading={busy === 'pass'}
              disabled={busy !== null}
              onClick={() => void complete('pass')}
            >
              {t('faceid.devPass')}
            </Button>
            <Button
              data-testid="dev-faceid-fail"
              size="large"
              block
              danger
              icon={<CloseOutlined />}
              loading={busy === 'fail'}
              disabled={busy !== null}
              onClick={() => void complete('fail')}
            >
              {t('faceid.devFail')}
            </Button>
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
