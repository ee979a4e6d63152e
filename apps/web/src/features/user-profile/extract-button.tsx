import { RobotOutlined } from '@ant-design/icons';
import { profileRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { afterValueChange } from './profile-queries.ts';

interface Props {
  customerId: string;
  spaceId: string | null;
  sceneId: number;
}

/**
 * "Extract with AI": the scene's agent reads the customer's latest conversation now. What it
 * filled shows in the profile as AI changes, which the history can undo; refusals (no model, no
 * field to extract) come as the usual error notice.
 */
export function ExtractButton({ customerId, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const extract = useApiMutation(profileRoutes.extract);

  const run = async () => {
    const { customer, extraction } = await extract.mutateAsync({ customer_id: customerId }).catch(() => ({
      customer: null,
      extraction: null,
    }));
    if (!customer || !extraction) return;
    // Also reloads the status line below (its key is under the scene's).
    await afterValueChange(spaceId, sceneId, customer);
    if (extraction.status === 'failed') {
      // The reason (in English, for the team's records) shows on the status line; the notice says what it means.
      void message.warning(t('userProfile.extract.failed'));
    } else if (extraction.status === 'unchanged') {
      void message.info(t('userProfile.extract.nothingNew'));
    } else {
      void message.success(
        t('userProfile.extract.done', {
          changed: extraction.changed,
          skipped: extraction.skipped,
          kept: extraction.kept,
        }),
      );
    }
  };

  return (
    <Button
      size="small"
      icon={<RobotOutlined />}
      loading={extract.isPending}
      onClick={run}
      data-testid="profile-extract"
    >
      {t('userProfile.extract.button')}
    </Button>
  );
}

/**
 * The customer's last AI extraction in one line (by the sweep or by the button): when, what it
 * changed and kept, or why it failed. The failure's reason is the server's record, shown as is.
 * Quiet while loading or when the line cannot be read: it adds to the profile, nothing depends on it.
 */
export function ExtractStatus({ customerId, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: [...queryKeys.profile.scene(spaceId, sceneId), 'extract-status', customerId] as const,
    queryFn: () => api(profileRoutes.extractStatus, { customer_id: customerId }),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
  if (!status.data) return null;
  const last = status.data.last;
  const style = { fontSize: 12 };
  if (!last) {
    return (
      <Typography.Text type="secondary" style={style} data-testid="profile-extract-status" data-status="never">
        {t('userProfile.extract.never')}
      </Typography.Text>
    );
  }
  const outcome =
    last.status === 'failed'
      ? t('userProfile.extract.lastFailed', { reason: last.reason ?? '' })
      : t('userProfile.extract.lastOk', { changed: last.changed, kept: last.kept }) +
        (last.skipped > 0 ? t('userProfile.extract.lastSkipped', { count: last.skipped }) : '');
  return (
    <Typography.Text
      type={last.status === 'failed' ? 'warning' : 'secondary'}
      style={style}
      data-testid="profile-extract-status"
      data-status={last.status}
    >
      {t('userProfile.extract.lastRead', { time: '' })}
      <RelativeTime iso={last.created_at} />
      {t('userProfile.extract.lastSep')}
      {outcome}
    </Typography.Text>
  );
}
