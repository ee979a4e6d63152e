import type { ProfileChangeSource } from '@athena/contract';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';

const COLORS: Record<ProfileChangeSource, string> = { person: 'blue', ai: 'purple', channel: 'cyan' };

/** Who changed a value and when: "[Person] Wang · 3 minutes ago". */
export function ChangeSource({
  source,
  name,
  at,
  testId,
}: {
  source: ProfileChangeSource;
  name: string;
  at: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={testId} data-source={source}>
      <Tag color={COLORS[source]} bordered={false} style={{ fontSize: 11, marginInlineEnd: 6 }}>
        {t(`userProfile.source.${source}`)}
      </Tag>
      {name ? <span>{name} · </span> : null}
      <RelativeTime iso={at} />
    </Typography.Text>
  );
}
