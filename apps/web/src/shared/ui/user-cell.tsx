import { UserOutlined } from '@ant-design/icons';
import { Avatar, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** Avatar + nickname, as every table of the team center shows a person. */
export function UserCell({
  nickname,
  avatarUrl,
  size = 28,
  extra,
}: {
  nickname: string;
  avatarUrl: string | null;
  size?: number;
  extra?: ReactNode;
}) {
  return (
    <Flex align="center" gap={8} style={{ minWidth: 0 }}>
      <Avatar size={size} src={avatarUrl ?? undefined} icon={<UserOutlined />} style={{ flex: 'none' }} />
      <Typography.Text ellipsis style={{ maxWidth: 220 }}>
        {nickname}
      </Typography.Text>
      {extra}
    </Flex>
  );
}
