import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExportOutlined,
  HourglassOutlined,
  LockOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { accountRoutes, type RealName } from '@athena/contract';
import { Alert, App, Button, Card, Descriptions, Flex, Skeleton, Typography, theme } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { isExternalUrl, useGo } from '../../lib/navigation.ts';
import { userTime } from '../../lib/user-time.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { FaceidForm } from './faceid-form.tsx';
import { rememberRealName, useRealName } from './use-real-name.ts';

function StateBlock({
  icon,
  title,
  children,
  testId,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Flex gap={16} align="flex-start" data-testid={testId}>
      <div style={{ fontSize: 36, lineHeight: 1 }}>{icon}</div>
      <Flex vertical gap={12} style={{ flex: 1 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {children}
      </Flex>
    </Flex>
  );
}

/** /account/faceid: unverified → pending → verified | failed, with what verification unlocks. */
export function FaceidPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useApiMutation(accountRoutes.realNameRefresh);
  const { token } = theme.useToken();
  const go = useGo();
  const realName = useRealName({ poll: true });
  const [verifyUrl, setVerifyUrl] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const [checking, setChecking] = useState(false);

  const openVerifyPage = (url: string) => {
    // The face check happens on the provider's page, in a new tab, as every http(s) link does.
    if (isExternalUrl(url)) go(url);
    else window.location.assign(url);
  };

  const onStarted = (url: string) => {
    setVerifyUrl(url);
    setRetrying(false);
    rememberRealName({
      state: 'pending',
      name_masked: null,
      id_number_masked: null,
      failure_reason: null,
      verified_at: null,
    });
    openVerifyPage(url);
  };

  const checkNow = async () => {
    setChecking(true);
    try {
      const result = rememberRealName(await refresh.mutateAsync(undefined));
      if (result.state === 'pending') void message.info(t('faceid.stillPending'));
    } catch {
      // The failure's notice is already showing.
    } finally {
      setChecking(false);
    }
  };

  const state = (data: RealName) => {
    if (data.state === 'verified') {
      return (
        <StateBlock
          testId="faceid-verified"
          icon={<CheckCircleFilled style={{ color: token.colorSuccess }} />}
          title={t('faceid.verifiedTitle')}
        >
          <Typography.Text type="secondary">{t('faceid.verifiedText')}</Typography.Text>
          <Descriptions
            column={1}
            size="small"
            bordered
            style={{ maxWidth: 480 }}
            items={[
              {
                key: 'name',
                label: t('faceid.name'),
                children: <span data-testid="faceid-name-masked">{data.name_masked}</span>,
              },
              {
                key: 'id',
                label: t('faceid.idNumber'),
                children: <span data-testid="faceid-id-masked">{data.id_number_masked}</span>,
              },
              {
                key: 'at',
                label: t('faceid.verifiedAt'),
                children: (
                  <span data-testid="faceid-verified-at">
                    {data.verified_at ? userTime(data.verified_at).format('YYYY-MM-DD HH:mm') : '—'}
                  </span>
                ),
              },
            ]}
          />
        </StateBlock>
      );
    }
    if (data.state === 'pending' && !retrying) {
      return (
        <StateBlock
          testId="faceid-pending"
          icon={<HourglassOutlined style={{ color: token.colorPrimary }} />}
          title={t('faceid.pendingTitle')}
        >
          <Typography.Text type="secondary">{t('faceid.pendingText')}</Typography.Text>
          <Flex gap={8} wrap>
            <Button
              data-testid="faceid-check"
              type="primary"
              icon={<ReloadOutlined />}
              loading={checking}
              onClick={checkNow}
            >
              {t('faceid.checkResult')}
            </Button>
            {verifyUrl ? (
              <Button data-testid="faceid-open" icon={<ExportOutlined />} onClick={() => openVerifyPage(verifyUrl)}>
                {t('faceid.openAgain')}
              </Button>
            ) : null}
            <Button data-testid="faceid-restart" type="link" onClick={() => setRetrying(true)}>
              {t('faceid.startOver')}
            </Button>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('faceid.autoCheck')}
          </Typography.Text>
        </StateBlock>
      );
    }
    if (data.state === 'failed' && !retrying) {
      return (
        <StateBlock
          testId="faceid-failed"
          icon={<CloseCircleFilled style={{ color: token.colorError }} />}
          title={t('faceid.failedTitle')}
        >
          <Alert
            type="error"
            showIcon
            title={<span data-testid="faceid-failure-reason">{data.failure_reason || t('faceid.failedNoReason')}</span>}
          />
          <div>
            <Button data-testid="faceid-retry" type="primary" onClick={() => setRetrying(true)}>
              {t('faceid.retry')}
            </Button>
          </div>
        </StateBlock>
      );
    }
    return (
      <Flex vertical gap={16} data-testid="faceid-unverified">
        <Typography.Text type="secondary">{t('faceid.formIntro')}</Typography.Text>
        <FaceidForm onStarted={onStarted} />
        {retrying ? (
          <div>
            <Button type="link" style={{ paddingInline: 0 }} onClick={() => setRetrying(false)}>
              {t('account.cancel')}
            </Button>
          </div>
        ) : null}
      </Flex>
    );
  };

  const body = () => {
    if (realName.isPending) return <Skeleton active data-testid="faceid-loading" />;
    if (realName.isError && !realName.data) {
      return (
        <Alert
          data-testid="faceid-load-error"
          type="warning"
          showIcon
          title={t('faceid.loadError')}
          description={errorText(realName.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void realName.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      );
    }
    return state(realName.data);
  };

  return (
    <Flex vertical gap={16} data-testid="page-accountFaceid" data-state={realName.data?.state ?? ''}>
      <PageHeader title={t('routes.accountFaceid')} subtitle={t('pageIntro.accountFaceid')} />
      <Card>{body()}</Card>
      <Card title={t('faceid.whyTitle')} size="small">
        <Flex vertical gap={8}>
          <Flex gap={8} align="baseline">
            <SafetyCertificateOutlined style={{ color: token.colorPrimary }} />
            <Typography.Text>{t('faceid.unlockRecharge')}</Typography.Text>
          </Flex>
          <Flex gap={8} align="baseline">
            <SafetyCertificateOutlined style={{ color: token.colorPrimary }} />
            <Typography.Text>{t('faceid.unlockShare')}</Typography.Text>
          </Flex>
          <Flex gap={8} align="baseline">
            <LockOutlined style={{ color: token.colorTextSecondary }} />
            <Typography.Text type="secondary">{t('faceid.privacy')}</Typography.Text>
          </Flex>
        </Flex>
      </Card>
    </Flex>
  );
}
