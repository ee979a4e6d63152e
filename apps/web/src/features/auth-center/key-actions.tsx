import { ApiOutlined, DeleteOutlined, EditOutlined, StarOutlined } from '@ant-design/icons';
import { type ModelKey, modelKeyRoutes } from '@athena/contract';
import { App, Button, Flex, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../lib/test-id.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshModelKeys } from './key-queries.ts';

/** "Make default", shown where the Default tag would be for the other keys of a purpose. */
export function SetDefaultButton({ item, spaceId }: { item: ModelKey; spaceId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setDefault = useApiMutation(modelKeyRoutes.setDefault);
  const [busy, setBusy] = useState(false);
  const purpose = t(`authCenter.purpose.${item.purpose}`);

  const makeDefault = async () => {
    setBusy(true);
    try {
      await setDefault.mutateAsync({ id: item.id });
      await refreshModelKeys(spaceId);
      void message.success(t('authCenter.actions.defaultSet', { name: item.model_name, purpose }));
    } catch {
      // The failure's notice is already showing.
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
  const deleteKey = useApiMutation(modelKeyRoutes.delete);
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
          await deleteKey.mutateAsync({ id: item.id });
          await refreshModelKeys(spaceId);
          void message.success(t('authCenter.delete.done', { name: item.model_name }));
        } catch {
          // The failure's notice is already showing.
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
