import { ApiOutlined, DeleteOutlined, EditOutlined, StarOutlined } from '@ant-design/icons';
import { type ModelKey, modelKeyRoutes } from '@athena/contract';
import { App, Button, Flex, Tooltip } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshModelKeys } from './key-queries.ts';

/** antd spreads okButtonProps onto the button; its prop types just do not list data attributes. */
const testId = (id: string): object => ({ 'data-testid': id });

/** A failed call as a toast, unless the API client already handled it (session gone, space gone). */
function useErrorToast() {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError && error.handled)) void message.error(errorText(error, currentLocale()));
    },
    [message],
  );
}

/** "Make default", shown where the Default tag would be for the other keys of a purpose. */
export function SetDefaultButton({ item, spaceId }: { item: ModelKey; spaceId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyError = useErrorToast();
  const [busy, setBusy] = useState(false);
  const purpose = t(`authCenter.purpose.${item.purpose}`);

  const makeDefault = async () => {
    setBusy(true);
    try {
      await api(modelKeyRoutes.setDefault, { id: item.id });
      await refreshModelKeys(spaceId);
      void message.success(t('authCenter.actions.defaultSet', { name: item.model_name, purpose }));
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip title={t('authCenter.actions.defaultHelp', { purpose })}>
      <Button
        type="link"
        size="small"
        icon={<StarOutlined />}
        loading={busy}
        onClick={() => void makeDefault()}
        data-testid="key-set-default"
        style={{ paddingInline: 0, height: 22 }}
      >
        {t('authCenter.actions.setDefault')}
      </Button>
    </Tooltip>
  );
}

interface Props {
  item: ModelKey;
  spaceId: string;
  testing: boolean;
  onTest: (item: ModelKey) => void;
  onEdit: (item: ModelKey) => void;
}

/** Test, edit and delete one key (shown only to people who manage keys). */
export function KeyActions({ item, spaceId, testing, onTest, onEdit }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const notifyError = useErrorToast();
  const purpose = t(`authCenter.purpose.${item.purpose}`);

  const remove = () =>
    modal.confirm({
      title: t('authCenter.delete.title', { name: item.model_name }),
      content: item.is_default
        ? `${t('authCenter.delete.text')} ${t('authCenter.delete.defaultText', { purpose })}`
        : t('authCenter.delete.text'),
      okText: t('authCenter.delete.ok'),
      cancelText: t('authCenter.form.cancel'),
      okButtonProps: { danger: true, ...testId('key-delete-confirm') },
      onOk: async () => {
        try {
          await api(modelKeyRoutes.delete, { id: item.id });
          await refreshModelKeys(spaceId);
          void message.success(t('authCenter.delete.done', { name: item.model_name }));
        } catch (error) {
          notifyError(error);
        }
      },
    });

  return (
    <Flex gap={2} justify="flex-end" wrap={false}>
      <Tooltip title={t('authCenter.actions.testHelp')}>
        <Button
          type="link"
          size="small"
          icon={<ApiOutlined />}
          loading={testing}
          onClick={() => onTest(item)}
          data-testid="key-test"
        >
          {testing ? t('authCenter.test.running') : t('authCenter.actions.test')}
        </Button>
      </Tooltip>
      <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(item)} data-testid="key-edit">
        {t('authCenter.actions.edit')}
      </Button>
      <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={remove} data-testid="key-delete">
        {t('authCenter.actions.delete')}
      </Button>
    </Flex>
  );
}
