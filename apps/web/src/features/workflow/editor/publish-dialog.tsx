import { Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Publishing asks for an optional note, which the version keeps (the versions list shows it). */
export function PublishDialog({
  open,
  publishing,
  onCancel,
  onPublish,
}: {
  open: boolean;
  publishing: boolean;
  onCancel: () => void;
  onPublish: (note: string) => void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  return (
    <Modal
      open={open}
      title={t('workflowEditor.publishDialog.title')}
      okText={t('workflowEditor.publishDialog.ok')}
      confirmLoading={publishing}
      onCancel={onCancel}
      onOk={() => onPublish(note)}
      afterClose={() => setNote('')}
      okButtonProps={{ 'data-testid': 'wf-publish-confirm' }}
      data-testid="wf-publish-dialog"
    >
      <Typography.Paragraph type="secondary">{t('workflowEditor.publishDialog.text')}</Typography.Paragraph>
      <Typography.Text>{t('workflowEditor.publishDialog.note')}</Typography.Text>
      {/* The counter hangs below the box; the padding keeps it off the buttons' row. */}
      <div style={{ marginTop: 4, paddingBottom: 20 }} data-testid="wf-publish-note-field">
        <Input.TextArea
          value={note}
          maxLength={500}
          showCount
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('workflowEditor.publishDialog.notePlaceholder')}
          onChange={(e) => setNote(e.target.value)}
          data-testid="wf-publish-note"
        />
      </div>
    </Modal>
  );
}
