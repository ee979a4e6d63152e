// Not WarningOutlined: the entry's error page uses it, and sharing it splits a chunk onto /login.
import { StopOutlined } from '@ant-design/icons';
import { ERRORS, type SpaceSummary, teamRoutes } from '@athena/contract';
import { Alert, App, Button, Card, Checkbox, Flex, Input, Modal, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { testId } from '../../lib/test-id.ts';
import { switchToFallbackSpace } from './space-switching.ts';

/** The creator's danger zone: dissolving asks for the name again, and for the balance when there is one. */
export function DissolveTeam({ team }: { team: SpaceSummary }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [forfeit, setForfeit] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locale = currentLocale();
  const amount = formatFen(team.balance, locale);
  const nameMatches = typed.trim() === team.name.trim();
  const ready = nameMatches && (team.balance <= 0 || forfeit);

  const close = () => {
    setOpen(false);
    setTyped('');
    setForfeit(false);
    setError(null);
  };

  const dissolve = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(teamRoutes.dissolve, { confirm_name: typed.trim(), forfeit_balance: forfeit });
      const next = await switchToFallbackSpace();
      close();
      void message.success(t('team.dissolve.done', { name: team.name, space: next?.name ?? '' }));
    } catch (caught) {
      setError(errorNotice(caught, locale));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      data-testid="team-danger-zone"
      title={
        <span style={{ color: token.colorError }}>
          <StopOutlined /> {t('team.dissolve.zoneTitle')}
        </span>
      }
      style={{ borderColor: token.colorErrorBorder }}
    >
      <Flex wrap justify="space-between" align="center" gap={16}>
        <Flex vertical gap={4} style={{ flex: '1 1 320px' }}>
          <Typography.Text strong>{t('team.dissolve.title')}</Typography.Text>
          <Typography.Text type="secondary">{t('team.dissolve.text')}</Typography.Text>
        </Flex>
        <Button danger onClick={() => setOpen(true)} data-testid="team-dissolve">
          {t('team.dissolve.button')}
        </Button>
      </Flex>
      <Modal
        open={open}
        title={t('team.dissolve.modalTitle', { name: team.name })}
        okText={t('team.dissolve.ok')}
        okButtonProps={{ danger: true, disabled: !ready, loading: busy, ...testId('team-dissolve-confirm') }}
        onOk={() => void dissolve()}
        onCancel={close}
        destroyOnHidden
      >
        <Flex vertical gap={16} data-testid="team-dissolve-modal">
          <Alert type="error" showIcon title={t('team.dissolve.warning')} />
          <Flex vertical gap={8}>
            <Typography.Text>
              {t('team.dissolve.typeName')} <Typography.Text code>{team.name}</Typography.Text>
            </Typography.Text>
            <Input
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              placeholder={t('team.dissolve.typeNamePlaceholder')}
              status={typed && !nameMatches ? 'error' : undefined}
              autoComplete="off"
              data-testid="team-dissolve-name"
            />
            {typed && !nameMatches ? (
              <Typography.Text type="danger" style={{ fontSize: 13 }}>
                {ERRORS.DISSOLVE_CONFIRM_MISMATCH.msg[locale]}
              </Typography.Text>
            ) : null}
          </Flex>
          {team.balance > 0 ? (
            <Checkbox
              checked={forfeit}
              onChange={(event) => setForfeit(event.target.checked)}
              data-testid="team-dissolve-forfeit"
            >
              {t('team.dissolve.forfeit', { amount })}
            </Checkbox>
          ) : null}
          {error ? <Alert type="error" showIcon title={error} data-testid="team-dissolve-error" /> : null}
        </Flex>
      </Modal>
    </Card>
  );
}
