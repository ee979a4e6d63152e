import { RobotOutlined } from '@ant-design/icons';
import { profileRoutes } from '@athena/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
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
    await afterValueChange(spaceId, sceneId, customer);
    if (extraction.status === 'failed') {
      // The reason (in English, for the team's records) stays on the server; the person gets what it means.
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
