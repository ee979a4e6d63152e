import {
  CheckCircleFilled,
  CloseOutlined,
  CloudUploadOutlined,
  ExclamationCircleFilled,
  FileOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { KNOWLEDGE_MAX_FILES } from '@athena/contract';
import { Alert, Button, Flex, Progress, Typography, theme } from 'antd';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { formatBytes, KNOWLEDGE_ACCEPT, problemText } from './file-checks.ts';
import type { UploadEntry } from './upload-queue.ts';
import type { UploadQueue } from './use-upload-queue.ts';

function FileRow({ entry, onRemove, onRetry }: { entry: UploadEntry; onRemove: () => void; onRetry: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const bad = entry.status === 'refused' || entry.status === 'failed';
  const state =
    entry.status === 'uploading'
      ? t('knowledge.upload.uploading', { percent: entry.percent })
      : entry.status === 'queued'
        ? t('knowledge.upload.queued')
        : entry.status === 'uploaded'
          ? t('knowledge.upload.uploaded')
          : entry.status === 'refused'
            ? t('knowledge.upload.refused')
            : t('knowledge.upload.failed');
  return (
    <div
      data-testid="upload-file"
      data-status={entry.status}
      data-name={entry.name}
      style={{
        border: `1px solid ${bad ? token.colorErrorBorder : token.colorBorderSecondary}`,
        background: bad ? token.colorErrorBg : token.colorBgContainer,
        borderRadius: 8,
        padding: '8px 12px',
      }}
    >
      <Flex align="center" gap={8}>
        {entry.status === 'uploaded' ? (
          <CheckCircleFilled style={{ color: token.colorSuccess }} />
        ) : bad ? (
          <ExclamationCircleFilled style={{ color: token.colorError }} />
        ) : (
          <FileOutlined style={{ color: token.colorPrimary }} />
        )}
        <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={entry.name} data-testid="upload-file-name">
          {entry.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {formatBytes(entry.size)}
        </Typography.Text>
        <Typography.Text
          type={bad ? 'danger' : 'secondary'}
          style={{ fontSize: 12, whiteSpace: 'nowrap', minWidth: 64, textAlign: 'end' }}
          data-testid="upload-file-state"
        >
          {state}
        </Typography.Text>
        {entry.status === 'failed' ? (
          <Button
            size="small"
            type="text"
            icon={<RedoOutlined />}
            aria-label={t('knowledge.upload.retry', { name: entry.name })}
            title={t('knowledge.upload.retry', { name: entry.name })}
            onClick={onRetry}
            data-testid="upload-file-retry"
          />
        ) : null}
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          aria-label={t('knowledge.upload.remove', { name: entry.name })}
          title={t('knowledge.upload.remove', { name: entry.name })}
          onClick={onRemove}
          data-testid="upload-file-remove"
        />
      </Flex>
      {bad ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="upload-file-error">
          {entry.error}
        </Typography.Text>
      ) : (
        <Progress
          data-testid="upload-file-progress"
          data-percent={entry.percent}
          percent={entry.percent}
          size="small"
          status={entry.status === 'uploaded' ? 'success' : entry.status === 'uploading' ? 'active' : 'normal'}
          showInfo={false}
          style={{ margin: 0 }}
        />
      )}
    </div>
  );
}

/** Step 1: drop or pick up to ten files; each uploads at once with its own progress bar. */
export function UploadFilesStep({ queue }: { queue: UploadQueue }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setOver(false);
    if (queue.full) return;
    queue.add([...event.dataTransfer.files]);
  };

  return (
    <Flex vertical gap={12}>
      <input
        ref={input}
        data-testid="upload-input"
        aria-label={t('knowledge.upload.pick')}
        type="file"
        multiple
        accept={KNOWLEDGE_ACCEPT}
        style={{ display: 'none' }}
        onChange={(event) => {
          queue.add([...(event.target.files ?? [])]);
          // The same file may be chosen again after removing it.
          event.target.value = '';
        }}
      />
      <section
        aria-label={t('knowledge.upload.dropTitle')}
        data-testid="upload-drop-zone"
        data-over={over}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{
          border: `1px dashed ${over ? token.colorPrimary : token.colorBorder}`,
          background: over ? token.colorPrimaryBg : token.colorFillQuaternary,
          borderRadius: 12,
          padding: '32px 16px',
          textAlign: 'center',
          transition: 'all 0.2s',
        }}
      >
        <Flex vertical align="center" gap={8}>
          <CloudUploadOutlined style={{ fontSize: 40, color: token.colorPrimary }} />
          <Typography.Text strong style={{ fontSize: 15 }}>
            {t('knowledge.upload.dropTitle')}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('knowledge.upload.dropHint', { max: KNOWLEDGE_MAX_FILES })}
          </Typography.Text>
          <Button
            type="primary"
            onClick={() => input.current?.click()}
            disabled={queue.full}
            data-testid="upload-pick"
            style={{ marginTop: 4 }}
          >
            {t('knowledge.upload.pick')}
          </Button>
        </Flex>
      </section>
      {queue.tooMany ? (
        <Alert
          type="warning"
          showIcon
          closable={{ onClose: queue.dismissTooMany }}
          title={problemText('TOO_MANY_FILES', currentLocale())}
          data-testid="upload-too-many"
        />
      ) : null}
      <Flex vertical gap={8} data-testid="upload-files">
        {queue.entries.map((entry) => (
          <FileRow
            key={entry.key}
            entry={entry}
            onRemove={() => void queue.remove(entry.key)}
            onRetry={() => queue.retry(entry.key)}
          />
        ))}
      </Flex>
    </Flex>
  );
}
