import { MobileOutlined, RightOutlined, SafetyCertificateOutlined, WechatOutlined } from '@ant-design/icons';
import { accountRoutes, type RealName } from '@athena/contract';
import { App, Button, Card, Flex, Popconfirm, Skeleton, Tag, Typography, theme } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { patchUserInfo } from '../../lib/session.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { useRealName } from '../faceid/use-real-name.ts';
import { ChangePhoneModal } from './change-phone-modal.tsx';
import { WechatBindModal } from './wechat-bind-modal.tsx';

interface RowProps {
  icon: ReactNode;
  title: string;
  value: ReactNode;
  action: ReactNode;
  testId: string;
  extra?: Record<string, string>;
  last?: boolean;
}

function Row({ icon, title, value, action, testId, extra, last = false }: RowProps) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      gap={16}
      wrap
      data-testid={testId}
      {...extra}
      style={{ padding: '14px 0', borderBottom: last ? undefined : `1px solid ${token.colorSplit}` }}
    >
      <Flex
        align="center"
        justify="center"
        style={{ width: 40, height: 40, borderRadius: 10, background: token.colorFillTertiary, fontSize: 18 }}
      >
        {icon}
      </Flex>
      <Flex vertical style={{ flex: 1, minWidth: 180 }}>
        <Typography.Text strong>{title}</Typography.Text>
        <Typography.Text type="secondary">{value}</Typography.Text>
      </Flex>
      {action}
    </Flex>
  );
}

const REAL_NAME_COLORS: Record<RealName['state'], string> = {
  unverified: 'default',
  pending: 'processing',
  verified: 'success',
  failed: 'error',
};

/** Phone, WeChat and real-name verification: the ways this account proves who it is. */
export function SecurityCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const go = useGo();
  const user = useUserStore((s) => s.userinfo);
  const realName = useRealName();
  const [phoneOpen, setPhoneOpen] = useState(false);
  const [wechatOpen, setWechatOpen] = useState(false);
  const [unbinding, setUnbinding] = useState(false);
  // Its refusal stays up longer than the usual notice: it says what to do first.
  const unbindWechat = useApiMutation(accountRoutes.wechatUnbind, { meta: { errorNotice: false } });
  if (!user) return null;

  const unbind = async () => {
    setUnbinding(true);
    try {
      await unbindWechat.mutateAsync(undefined);
      patchUserInfo({ has_wechat: false });
      void message.success(t('account.wechatUnlinked'));
    } catch (caught) {
      // e.g. 40051: no phone on the account, unlinking would lock the person out.
      const text = errorNotice(caught);
      if (text) void message.error({ content: text, duration: 6 });
    } finally {
      setUnbinding(false);
    }
  };

  const realNameState = realName.data?.state ?? (user.real_name_verified ? 'verified' : undefined);

  return (
    <Card title={t('account.securityTitle')}>
      <Row
        testId="account-phone"
        icon={<MobileOutlined />}
        title={t('account.phone')}
        value={<span data-testid="account-phone-value">{user.phone_masked ?? t('account.noPhone')}</span>}
        action={
          <Button data-testid="change-phone-button" onClick={() => setPhoneOpen(true)}>
            {user.phone_masked ? t('account.changePhone') : t('account.addPhone')}
          </Button>
        }
      />
      <Row
        testId="account-wechat"
        extra={{ 'data-linked': String(user.has_wechat) }}
        icon={<WechatOutlined style={{ color: '#07c160' }} />}
        title={t('account.wechat')}
        value={user.has_wechat ? t('account.wechatLinkedText') : t('account.wechatNotLinkedText')}
        action={
          user.has_wechat ? (
            <Popconfirm
              title={t('account.unlinkWechatTitle')}
              description={t('account.unlinkWechatText')}
              okText={t('account.unlinkWechat')}
              cancelText={t('account.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={unbind}
            >
              <Button data-testid="wechat-unbind-button" loading={unbinding}>
                {t('account.unlinkWechat')}
              </Button>
            </Popconfirm>
          ) : (
            <Button data-testid="wechat-bind-button" onClick={() => setWechatOpen(true)}>
              {t('account.linkWechat')}
            </Button>
          )
        }
      />
      <Row
        last
        testId="account-realname"
        extra={{ 'data-state': realNameState ?? '' }}
        icon={<SafetyCertificateOutlined />}
        title={t('account.realName')}
        value={
          realNameState ? (
            <Tag color={REAL_NAME_COLORS[realNameState]} style={{ marginTop: 2 }}>
              {t(`faceid.state.${realNameState}`)}
            </Tag>
          ) : realName.isError ? (
            errorText(realName.error, currentLocale())
          ) : (
            <Skeleton.Button active size="small" />
          )
        }
        action={
          <Button
            data-testid="realname-link"
            onClick={() => go('accountFaceid')}
            icon={<RightOutlined />}
            iconPlacement="end"
          >
            {realNameState === 'verified' ? t('account.realNameView') : t('account.realNameVerify')}
          </Button>
        }
      />
      <ChangePhoneModal open={phoneOpen} hasPhone={Boolean(user.phone_masked)} onClose={() => setPhoneOpen(false)} />
      <WechatBindModal
        open={wechatOpen}
        onClose={() => setWechatOpen(false)}
        onBound={() => {
          patchUserInfo({ has_wechat: true });
          setWechatOpen(false);
          void message.success(t('account.wechatLinked'));
        }}
      />
    </Card>
  );
}
