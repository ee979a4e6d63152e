import { RobotOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';
import { useState } from 'react';

const COLORS = ['#4f46e5', '#0891b2', '#059669', '#d97706', '#db2777', '#7c3aed', '#2563eb', '#dc2626'];

const colorOf = (name: string) => {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return COLORS[hash % COLORS.length];
};

/** Only absolute http(s) images: an avatar URL is typed by a person and shown to visitors. */
export const isImageUrl = (value: string | null | undefined): value is string => {
  if (!value) return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The agent's picture, or its first character on a colour of its own (also when the image fails). */
export function AgentAvatar({ name, url, size = 40 }: { name: string; url: string | null; size?: number }) {
  const [failed, setFailed] = useState<string | null>(null);
  const image = isImageUrl(url) && failed !== url ? url.trim() : undefined;
  const initial = Array.from(name.trim())[0]?.toUpperCase();
  return (
    <Avatar
      shape="square"
      size={size}
      src={image}
      onError={() => {
        setFailed(url);
        return false;
      }}
      icon={initial ? undefined : <RobotOutlined />}
      style={{
        background: image ? 'transparent' : colorOf(name),
        borderRadius: size / 4,
        flex: 'none',
        fontSize: size * 0.45,
      }}
      data-testid="agent-avatar"
    >
      {initial}
    </Avatar>
  );
}
