import { HistoryOutlined } from '@ant-design/icons';
import type { ChatHistoryMessage, ChatPayload } from '@athena/contract';
import { Button, Flex, Modal, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activeTimezone } from '../../lib/timezone.ts';
import { fullTimeOf } from './chat-time.ts';

type MixRecord = NonNullable<ChatPayload['records']>[number];

/** Records shown on the card itself; the rest open in a dialog. */
const PREVIEW_RECORDS = 3;

function RecordLine({ record, withTime }: { record: MixRecord; withTime: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const body =
    record.display_type === 'text'
      ? record.content
      : `${t(`chatHistory.kinds.${record.display_type}`)}${record.content ? ` ${record.content}` : ''}`;
  return (
    <div
      style={{
        fontSize: withTime ? 14 : 12,
        lineHeight: 1.6,
        wordBreak: 'break-word',
        whiteSpace: withTime ? 'pre-wrap' : undefined,
      }}
    >
      <span style={{ color: token.colorTextSecondary }}>{record.sender || t('chatHistory.thread.mix.someone')}</span>
      {withTime && record.at !== null ? (
        <span style={{ color: token.colorTextQuaternary, fontSize: 12, marginInlineStart: 8 }}>
          {fullTimeOf(new Date(record.at).toISOString(), activeTimezone())}
        </span>
      ) : null}
      {withTime ? <div>{body}</div> : <span>: {body}</span>}
    </div>
  );
}

/** A merged chat record (forwarded messages): its first lines, and all of them on demand. */
export function MergedRecord({ message }: { message: ChatHistoryMessage }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  const records = message.payload.records ?? [];
  const title = message.payload.title || message.content || t('chatHistory.thread.mix.title');
  return (
    <div
      data-testid="chat-mix"
      style={{
        width: 260,
        maxWidth: '100%',
        borderRadius: 10,
        border: `1px solid ${token.colorBorderSecondary}`,
        background: token.colorBgContainer,
        padding: '10px 12px',
      }}
    >
      <div style={{ fontWeight: 500, marginBottom: 6 }}>{title}</div>
      {records.length === 0 ? (
        <div style={{ fontSize: 12, color: token.colorTextTertiary }}>{t('chatHistory.thread.mix.empty')}</div>
      ) : (
        <div style={{ overflow: 'hidden' }}>
          {records.slice(0, PREVIEW_RECORDS).map((record, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: records have no ids and keep their order.
            <div key={index} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
              <RecordLine record={record} withTime={false} />
            </div>
          ))}
        </div>
      )}
      <Flex
        justify="space-between"
        align="center"
        style={{ marginTop: 6, borderTop: `1px solid ${token.colorBorderSecondary}`, paddingTop: 4 }}
      >
        <span style={{ fontSize: 12, color: token.colorTextTertiary }}>
          <HistoryOutlined />{' '}
          {records.length === 1
            ? t('chatHistory.thread.mix.countOne', { count: 1 })
            : t('chatHistory.thread.mix.count', { count: records.length })}
        </span>
        {records.length > 0 ? (
          <Button
            type="link"
            size="small"
            style={{ paddingInline: 0 }}
            onClick={() => setOpen(true)}
            data-testid="chat-mix-open"
          >
            {t('chatHistory.thread.mix.showAll')}
          </Button>
        ) : null}
      </Flex>
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} title={title} destroyOnHidden>
        <Flex vertical gap={10} style={{ maxHeight: '60vh', overflowY: 'auto' }} data-testid="chat-mix-records">
          {records.map((record, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above.
            <RecordLine key={index} record={record} withTime />
          ))}
        </Flex>
      </Modal>
    </div>
  );
}
