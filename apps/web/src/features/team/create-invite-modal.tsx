import { CopyOutlined } from '@ant-design/icons';
import { type Invite, type InviteExpiry, teamRoutes } from '@athena/contract';
import { Alert, Button, Flex, Input, Modal, Result, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { testId } from '../../lib/test-id.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { ChoiceButtons } from './choice-buttons.tsx';
import { useCopyLink } from './invite-link-copy.tsx';

type Uses = 'once' | 'unlimited';

const EXPIRIES: InviteExpiry[] = ['1d', '7d', 'never'];
const USES: Uses[] = ['once', 'unlimited'];
const DEFAULTS = { expiry: '7d' as InviteExpiry, uses: 'unlimited' as Uses };

/**
 * Choose expiry and uses, create the link, then show it ready to copy.
 */
export function CreateInviteModal({ open, onClose, spaceId }: { open: boolean; onClose: () => void; spaceId: string }) {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const [expiry, setExpiry] = useState<InviteExpiry>(DEFAULTS.expiry);
  const [uses, setUses] = useState<Uses>(DEFAULTS.uses);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Invite | null>(null);
  const copy = useCopyLink();

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      setCreated(await api(teamRoutes.inviteCreate, { expires_in: expiry, max_uses: uses }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.team.all(spaceId) });
    } catch (caught) {
      setError(errorNotice(caught));
    } finally {
      setBusy(false);
    }
  };

  // Reset once the dialog has faded out, so it does not flip back to the form while closing.
  const reset = () => {
    setCreated(null);
    setError(null);
    setExpiry(DEFAULTS.expiry);
    setUses(DEFAULTS.uses);
  };

  return (
    <Modal
      open={open}
      title={created ? null : t('team.invites.createTitle')}
      onCancel={onClose}
      afterClose={reset}
      onOk={() => void create()}
      destroyOnHidden
      footer={
        created ? (
          <Button type="primary" onClick={onClose} data-testid="invite-created-done">
            {t('team.invites.done')}
          </Button>
        ) : undefined
      }
      okText={t('team.invites.createSubmit')}
      okButtonProps={{ loading: busy, ...testId('invite-create-submit') }}
    >
      {created ? (
        <Result
          status="success"
          title={t('team.invites.createdTitle')}
          subTitle={t('team.invites.createdText')}
          style={{ padding: '16px 0 0' }}
          extra={
            <Space.Compact style={{ width: '100%' }}>
              <Input
                readOnly
                value={publicAddress.link(created.url)}
                data-testid="invite-created-url"
                onFocus={(e) => e.target.select()}
              />
              <Button
                type="primary"
                icon={<CopyOutlined />}
                onClick={() => void copy(publicAddress.link(created.url))}
                data-testid="invite-created-copy"
              >
                {t('team.invites.copy')}
              </Button>
            </Space.Compact>
          }
        />
      ) : (
        <Flex vertical gap={20} style={{ padding: '8px 0' }} data-testid="invite-create-form">
          <Flex vertical gap={8}>
            <Typography.Text>{t('team.invites.expiry')}</Typography.Text>
            <ChoiceButtons
              label={t('team.invites.expiry')}
              value={expiry}
              onChange={setExpiry}
              options={EXPIRIES.map((value) => ({
                value,
                label: t(`team.invites.expiryOption.${value}`),
                testId: `invite-expiry-${value}`,
              }))}
            />
          </Flex>
          <Flex vertical gap={8}>
            <Typography.Text>{t('team.invites.uses')}</Typography.Text>
            <ChoiceButtons
              label={t('team.invites.uses')}
              value={uses}
              onChange={setUses}
              options={USES.map((value) => ({
                value,
                label: t(`team.invites.usesOption.${value}`),
                testId: `invite-uses-${value}`,
              }))}
            />
          </Flex>
          {error ? <Alert type="error" showIcon title={error} /> : null}
        </Flex>
      )}
    </Modal>
  );
}
