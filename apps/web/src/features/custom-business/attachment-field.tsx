import { CloseOutlined, FileOutlined, PaperClipOutlined } from '@ant-design/icons';
import { ATTACHMENT_ACCEPT, ATTACHMENT_MAX_COUNT } from '@athena/contract';
import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from './form-rules.ts';
import type { AttachmentUploads, UploadItem } from './use-attachment-uploads.ts';

function UploadRow({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="cab-file"
      data-status={item.status}
      data-name={item.name}
      style={{ border: '1px solid rgba(127,127,127,0.25)', borderRadius: 8, padding: '8px 12px' }}
    >
      <Flex align="center" gap={8}>
        <FileOutlined style={{ color: item.status === 'error' ? '#ff4d4f' : '#6366f1' }} />
        <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={item.name}>
          {item.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {item.status === 'uploading'
            ? t('customBusiness.files.uploading', { percent: item.percent })
            : item.status === 'done'
              ? formatBytes(item.size)
              : t('customBusiness.files.failed')}
        </Typography.Text>
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          aria-label={t('customBusiness.files.remove', { name: item.name })}
          title={t('customBusiness.files.remove', { name: item.name })}
          onClick={onRemove}
          data-testid="cab-file-remove"
        />
      </Flex>
      {item.status === 'error' ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="cab-file-error">
          {item.error}
        </Typography.Text>
      ) : (
        <Progress
          data-testid="cab-file-progress"
          data-percent={item.percent}
          percent={item.percent}
          size="small"
          status={item.status === 'done' ? 'success' : 'active'}
          showInfo={false}
          style={{ margin: 0 }}
        />
      )}
    </div>
  );
}

/** The form's attachments: pick files, watch each upload, remove any. */
export function AttachmentField({ uploads, error }: { uploads: AttachmentUploads; error?: string | null }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Flex vertical gap={8}>
      <input
        ref={input}
        data-testid="cab-file-input"
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        style={{ display: 'none' }}
        onChange={(event) => {
          void uploads.add([...(event.target.files ?? [])]);
          // The same file may be chosen again after removing it.
          event.target.value = '';
        }}
      />
      <Flex align="center" gap={12} wrap>
        <Button
          icon={<PaperClipOutlined />}
          onClick={() => input.current?.click()}
          disabled={uploads.full}
          data-testid="cab-add-files"
        >
          {t('customBusiness.files.add')}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('customBusiness.files.hint', { max: ATTACHMENT_MAX_COUNT })}
        </Typography.Text>
      </Flex>
      {uploads.items.map((item) => (
        <UploadRow key={item.key} item={item} onRemove={() => uploads.remove(item.key)} />
      ))}
      {uploads.notice || error ? (
        <Alert type="warning" showIcon title={uploads.notice ?? error} data-testid="cab-files-notice" />
      ) : null}
    </Flex>
  );
}
