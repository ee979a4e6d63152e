import { type SpaceSummary, TEAM_NAME_MAX_LENGTH, teamRoutes } from '@athena/contract';
import { App, Flex, Input, Modal, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { testId } from '../../lib/test-id.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { switchToSpace } from './space-switching.ts';
import { teamNameError } from './team-name.ts';

type Mode = 'create' | 'rename';

interface Props {
  mode: Mode;
  open: boolean;
  onClose: () => void;
  /** The current name, for renaming. */
  initialName?: string;
}

const FORM_ID = 'team-name-form';

/**
 * Create a team (then switch to it) or rename the current one. The name rule and its messages
 * are the contract's, checked here first and again by the server.
 */
export function TeamNameModal({ mode, open, onClose, initialName = '' }: Props) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open={open}
      title={mode === 'create' ? t('team.nameForm.createTitle') : t('team.nameForm.renameTitle')}
      okText={mode === 'create' ? t('team.nameForm.createSubmit') : t('team.nameForm.renameSubmit')}
      okButtonProps={{ htmlType: 'submit', form: FORM_ID, loading: saving, ...testId('team-name-submit') }}
      onCancel={onClose}
      // The form lives inside, so every opening starts from a fresh one.
      destroyOnHidden
    >
      <NameForm mode={mode} initialName={initialName} onSaving={setSaving} onDone={onClose} />
    </Modal>
  );
}

/**
 * A plain form rather than antd's Form: sharing Form's chunk with the login panel would split
 * another chunk onto the budgeted /login path, and one field does not need it.
 */
function NameForm({
  mode,
  initialName,
  onSaving,
  onDone,
}: {
  mode: Mode;
  initialName: string;
  onSaving: (saving: boolean) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [name, setName] = useState(mode === 'rename' ? initialName : '');
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const inputId = useId();
  const locale = currentLocale();

  const check = (value: string) => {
    const problem = teamNameError(value, locale);
    setError(problem);
    return problem === null;
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check(name)) return;
    onSaving(true);
    try {
      if (mode === 'create') {
        const created = await api(teamRoutes.create, { name: name.trim() });
        await switchToSpace(created.id);
        void message.success(t('team.nameForm.created', { name: created.name }));
      } else {
        const renamed: SpaceSummary = await api(teamRoutes.update, { name: name.trim() });
        useUserStore.getState().setTeam(renamed);
        await queryClient.invalidateQueries();
        void message.success(t('team.nameForm.renamed', { name: renamed.name }));
      }
      onDone();
    } catch (caught) {
      setError(errorNotice(caught, locale));
    } finally {
      onSaving(false);
    }
  };

  return (
    <form
      id={FORM_ID}
      onSubmit={submit}
      noValidate
      data-testid={mode === 'create' ? 'team-create-modal' : 'team-rename-modal'}
    >
      {mode === 'create' ? (
        <Typography.Paragraph type="secondary">{t('team.nameForm.createHint')}</Typography.Paragraph>
      ) : null}
      <Flex vertical gap={8} style={{ marginBottom: 8 }}>
        <label htmlFor={inputId}>{t('team.nameForm.label')}</label>
        <Input
          id={inputId}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (touched || error) check(event.target.value);
          }}
          onBlur={() => {
            if (name) {
              setTouched(true);
              check(name);
            }
          }}
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error)}
          data-testid="team-name-input"
          placeholder={t('team.nameForm.placeholder')}
          count={{ show: true, max: TEAM_NAME_MAX_LENGTH }}
          autoFocus
          autoComplete="off"
        />
        {error ? (
          <Typography.Text type="danger" role="alert" data-testid="team-name-error">
            {error}
          </Typography.Text>
        ) : null}
      </Flex>
    </form>
  );
}
