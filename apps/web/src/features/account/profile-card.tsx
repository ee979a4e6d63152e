import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { userTime } from '../../lib/user-time.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { AvatarUpload } from './avatar-upload.tsx';
import { NicknameEditor } from './nickname-editor.tsx';

/** Avatar and nickname: how others in my teams see me. */
export function ProfileCard() {
  const { t } = useTranslation();
  const user = useUserStore((s) => s.userinfo);
  if (!user) return null;
  return (
    <Card title={t('account.profileTitle')}>
      <Flex gap={32} wrap align="flex-start">
        <AvatarUpload />
        <Flex vertical gap={12} style={{ flex: 1, minWidth: 260, paddingTop: 8 }}>
          <Typography.Text type="secondary">{t('account.nickname')}</Typography.Text>
          <NicknameEditor />
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {t('account.nicknameHint')}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {t('account.createdAt', { date: userTime(user.created_at).format('YYYY-MM-DD') })}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
