import { ERRORS } from '@athena/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';

export interface GroupNameTexts {
  title: string;
  ok: string;
  cancel: string;
  label: string;
  /** The refusal for a name over 50 characters (each domain has its own code for it). */
  tooLong: string;
}

/**
 * Creates a group or renames one: just a name. `save` makes the call (and refreshes what shows
 * the groups); a refusal shows under the field, and the modal closes once it succeeded. Test ids
 * are `<testIdPrefix>group-name-modal`, `…-input` and `…-submit`.
 */
export function GroupNameModal({
  open,
  initialName,
  texts,
  testIdPrefix,
  save,
  onClose,
}: {
  open: boolean;
  initialName: string;
  texts: GroupNameTexts;
  testIdPrefix: string;
  save: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      await save(name.trim());
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={texts.title}
      okText={texts.ok}
      cancelText={texts.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': `${testIdPrefix}group-name-submit` }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: initialName }}
        onFinish={(values) => void submit(values)}
        data-testid={`${testIdPrefix}group-name-modal`}
      >
        <Form.Item
          name="name"
          label={texts.label}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[
            { required: true, whitespace: true, message: ERRORS.GROUP_NAME_REQUIRED.msg[language] },
            { max: 50, message: texts.tooLong },
          ]}
        >
          <Input autoFocus maxLength={60} data-testid={`${testIdPrefix}group-name-input`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
