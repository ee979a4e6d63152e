import { MEDIA_DESCRIPTION_MAX, MEDIA_NAME_MAX, type MediaLibrary, mediaRoutes } from '@athena/contract';
import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshMedia, useMediaGroups } from './media-queries.ts';

interface Values {
  name: string;
  description: string;
  group: string | null;
}

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new library (in `groupId` when given). */
  library: MediaLibrary | null;
  groupId: string | null;
  onClose: () => void;
  onSaved?: (library: MediaLibrary) => void;
}

/** A new library, or a library's name, description and group. */
export function LibraryFormModal({ open, spaceId, library, groupId, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const groups = useMediaGroups(spaceId);

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      const name = values.name.trim();
      const description = (values.description ?? '').trim();
      let saved: MediaLibrary;
      if (library) {
        saved = await api(mediaRoutes.libraryUpdate, { id: library.id, name, description });
        // The group is its own route; only call it when the group changed.
        if ((values.group ?? null) !== library.group_id) {
          saved = await api(mediaRoutes.libraryMove, { id: library.id, group_id: values.group ?? null });
        }
      } else {
        saved = await api(mediaRoutes.libraryCreate, { name, description, group_id: values.group ?? null });
      }
      await refreshMedia(spaceId);
      onSaved?.(saved);
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, currentLocale()));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={library ? t('media.library.editTitle') : t('media.library.createTitle')}
      okText={library ? t('media.save') : t('media.library.createOk')}
      cancelText={t('media.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'library-form-submit' }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          name: library?.name ?? '',
          description: library?.description ?? '',
          group: library ? library.group_id : groupId,
        }}
        onFinish={(values) => void submit(values)}
        data-testid="library-form"
      >
        <Form.Item
          name="name"
          label={t('media.library.name')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[
            { required: true, whitespace: true, message: t('media.library.nameRequired') },
            { max: MEDIA_NAME_MAX, message: t('media.library.nameTooLong', { max: MEDIA_NAME_MAX }) },
          ]}
        >
          <Input autoFocus maxLength={MEDIA_NAME_MAX + 10} data-testid="library-form-name" />
        </Form.Item>
        <Form.Item name="description" label={t('media.library.description')}>
          <Input.TextArea rows={3} maxLength={MEDIA_DESCRIPTION_MAX} showCount data-testid="library-form-description" />
        </Form.Item>
        <Form.Item name="group" label={t('media.library.group')}>
          <Select
            allowClear
            placeholder={t('media.groups.ungrouped')}
            loading={groups.isPending}
            options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
            data-testid="library-form-group"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
