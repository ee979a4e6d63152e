import { Card, Flex, Progress, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { useMediaUsage } from './media-queries.ts';

/** The team's media storage against its quota (the trash and unfinished uploads count too). */
export function UsageBar({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation();
  const usage = useMediaUsage(spaceId);
  if (usage.isPending) {
    return (
      <Card size="small">
        <Skeleton active title={false} paragraph={{ rows: 1 }} />
      </Card>
    );
  }
  if (usage.isError) {
    return (
      <Card size="small">
        <Typography.Text type="secondary" data-testid="media-usage-error">
          {t('media.usage.failed')}
        </Typography.Text>
      </Card>
    );
  }
  const { used_bytes: used, quota_bytes: quota } = usage.data;
  const percent = quota > 0 ? Math.min(100, (used / quota) * 100) : 0;
  return (
    <Card size="small" data-testid="media-usage">
      <Flex vertical gap={4}>
        <Flex justify="space-between" gap={8}>
          <Typography.Text strong>{t('media.usage.title')}</Typography.Text>
          <Typography.Text type="secondary" data-testid="media-usage-text">
            {t('media.usage.text', { used: formatBytes(used), quota: formatBytes(quota) })}
          </Typography.Text>
        </Flex>
        <Progress
          percent={Number(percent.toFixed(1))}
          showInfo={false}
          status={percent >= 90 ? 'exception' : 'normal'}
          size="small"
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('media.usage.hint')}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
