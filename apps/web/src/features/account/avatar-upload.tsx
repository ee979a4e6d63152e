import { LoadingOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { avatarUpload } from '@athena/contract';
import { Alert, Avatar, Button, Flex, Spin, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { patchUserInfo } from '../../lib/session.ts';
import { upload } from '../../lib/upload-client.ts';
import { useImageUpload } from '../../shared/hooks/use-image-upload.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { AVATAR_IMAGE } from './avatar.ts';

const SIZE = 96;

/** The avatar with its upload: JPG/PNG ≤ 2 MB, checked here first, previewed while it uploads. */
export function AvatarUpload() {
  const { t } = useTranslation();
  const avatarUrl = useUserStore((s) => s.userinfo?.avatar_url ?? null);
  const input = useRef<HTMLInputElement>(null);
  const { preview, uploading, error, choose } = useImageUpload(AVATAR_IMAGE, async (file, type) => {
    const result = await upload(avatarUpload, file, { contentType: type }).promise;
    patchUserInfo({ avatar_url: result.avatar_url });
  });

  return (
    <Flex vertical align="center" gap={10} style={{ minWidth: 160 }}>
      <Spin spinning={uploading} indicator={<LoadingOutlined />}>
        <Avatar
          data-testid="account-avatar"
          data-src={preview ?? avatarUrl ?? ''}
          size={SIZE}
          src={preview ?? avatarUrl ?? undefined}
          icon={<UserOutlined />}
          alt={t('account.avatarAlt')}
        />
      </Spin>
      <input
        ref={input}
        data-testid="avatar-input"
        type="file"
        accept="image/png,image/jpeg,.png,.jpg,.jpeg"
        hidden
        onChange={(event) => {
          void choose(event.target.files?.[0]);
          // The same file may be chosen again after fixing a problem.
          event.target.value = '';
        }}
      />
      <Button
        data-testid="avatar-upload-button"
        icon={<UploadOutlined />}
        loading={uploading}
        onClick={() => input.current?.click()}
      >
        {avatarUrl ? t('account.changeAvatar') : t('account.uploadAvatar')}
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
        {t('account.avatarHint')}
      </Typography.Text>
      {error ? (
        <Alert data-testid="avatar-error" type="error" showIcon title={error} style={{ maxWidth: 240 }} />
      ) : null}
    </Flex>
  );
}
