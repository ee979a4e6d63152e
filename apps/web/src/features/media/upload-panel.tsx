import {
  CaretRightOutlined,
  CloseOutlined,
  DownOutlined,
  PauseOutlined,
  ReloadOutlined,
  StopOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { Button, Card, Flex, Progress, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { formatBytes, formatClock } from '../../lib/format.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { UnfinishedRows } from './unfinished-rows.tsx';
import { secondsLeft } from './upload-math.ts';
import { loadUnfinished } from './upload-resume.ts';
import { cancel, pause, resume, retry } from './upload-runner.ts';
import { isActive, type UploadEntry, useUploadStore } from './upload-store.ts';

const PROGRESS_STATUS = { failed: 'exception', done: 'success', canceled: 'normal' } as const;

function Row({ entry }: { entry: UploadEntry }) {
  const { t } = useTranslation();
  const failedText = t('media.upload.failed');
  const percent = entry.size > 0 ? Math.floor((entry.sent / entry.size) * 100) : 0;
  const left = entry.status === 'uploading' ? secondsLeft(entry.size, entry.sent, entry.speed) : null;
  const facts = [
    `${formatBytes(entry.sent)} / ${formatBytes(entry.size)}`,
    entry.status === 'uploading' && entry.speed !== null ? `${formatBytes(entry.speed)}/s` : null,
    left !== null ? t('media.upload.left', { time: formatClock(left) }) : null,
    entry.status === 'uploading' || entry.status === 'failed' ? null : t(`media.upload.status.${entry.status}`),
    entry.resumed && entry.status !== 'done' ? t('media.upload.resumed') : null,
  ].filter(Boolean);
  const button = (key: string, label: string, icon: React.ReactNode, onClick: () => void) => (
    <Tooltip title={label}>
      <Button size="small" type="text" icon={icon} aria-label={label} onClick={onClick} data-testid={`upload-${key}`} />
    </Tooltip>
  );
  return (
    <Flex
      vertical
      gap={2}
      style={{ padding: '6px 0' }}
      data-testid="upload-row"
      data-name={entry.name}
      data-status={entry.status}
      data-resumed={entry.resumed}
      data-sent={entry.sent}
    >
      <Flex align="center" gap={4}>
        <Typography.Text ellipsis={{ tooltip: entry.name }} style={{ flex: 1, minWidth: 0 }}>
          {entry.name}
        </Typography.Text>
        {entry.status === 'uploading' || entry.status === 'queued'
          ? button('pause', t('media.upload.pause'), <PauseOutlined />, () => pause(entry.id))
          : null}
        {entry.status === 'paused'
          ? button('resume', t('media.upload.resume'), <CaretRightOutlined />, () => resume(entry.id, failedText))
          : null}
        {entry.status === 'failed' && entry.size > 0
          ? button('retry', t('media.upload.retry'), <ReloadOutlined />, () => retry(entry.id, failedText))
          : null}
        {isActive(entry.status) || entry.status === 'paused' || entry.status === 'failed'
          ? button('cancel', t('media.upload.cancel'), <StopOutlined />, () => cancel(entry.id, failedText))
          : button('dismiss', t('media.upload.dismiss'), <CloseOutlined />, () =>
              useUploadStore.getState().remove(entry.id),
            )}
      </Flex>
      <Progress
        percent={percent}
        size="small"
        showInfo={false}
        status={entry.status === 'uploading' ? 'active' : PROGRESS_STATUS[entry.status as keyof typeof PROGRESS_STATUS]}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="upload-facts">
        {facts.join(' · ')}
      </Typography.Text>
      {entry.error ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="upload-error">
          {entry.error}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/**
 * The uploads of this tab, over every page of the app (the main layout mounts it): one row per
 * file with its progress, speed and time left, and pause, resume, retry and cancel.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const entries = useUploadStore((s) => s.entries);
  const clearFinished = useUploadStore((s) => s.clearFinished);
  const unfinished = useUploadStore((s) => s.unfinished);
  const spaceId = useUserStore((s) => s.spaceId);
  const [folded, setFolded] = useState(false);
  // After a reload, what tus remembers of this space's interrupted uploads.
  useEffect(() => {
    if (spaceId) void loadUnfinished(spaceId).catch(() => undefined);
  }, [spaceId]);
  // Moving to another page takes finished rows away once nothing is left to do (running, paused or
  // failed rows stay): a panel of done uploads covered the next pages' controls until cleared.
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes, not when the rows do
  useEffect(() => {
    const { entries: now, clearFinished: clear } = useUploadStore.getState();
    if (now.every((entry) => entry.status === 'done' || entry.status === 'canceled')) clear();
  }, [pathname]);
  if (entries.length === 0 && unfinished.length === 0) return null;
  const running = entries.filter((e) => isActive(e.status)).length;
  const finished = entries.some((e) => e.status === 'done' || e.status === 'canceled');
  return (
    <Card
      size="small"
      data-testid="upload-panel"
      title={running > 0 ? t('media.upload.titleRunning', { count: running }) : t('media.upload.title')}
      extra={
        <Flex gap={4}>
          {finished ? (
            <Button size="small" type="link" onClick={clearFinished} data-testid="upload-clear">
              {t('media.upload.clear')}
            </Button>
          ) : null}
          <Button
            size="small"
            type="text"
            icon={folded ? <UpOutlined /> : <DownOutlined />}
            aria-label={folded ? t('media.upload.unfold') : t('media.upload.fold')}
            onClick={() => setFolded(!folded)}
          />
        </Flex>
      }
      style={{
        position: 'fixed',
        right: 16,
        bottom: 16,
        width: 380,
        zIndex: 1000,
        boxShadow: '0 6px 24px rgba(0,0,0,0.15)',
      }}
      styles={{ body: folded ? { display: 'none' } : { maxHeight: 320, overflow: 'auto', paddingTop: 4 } }}
    >
      {entries.map((entry) => (
        <Row key={entry.id} entry={entry} />
      ))}
      <UnfinishedRows list={unfinished} />
    </Card>
  );
}
