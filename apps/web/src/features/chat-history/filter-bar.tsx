import { SearchOutlined } from '@ant-design/icons';
import { CHAT_LIMITS } from '@athena/contract';
import { Flex, Input, Select, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import type { ChatFilters, SendTypeOption } from './chat-filters.ts';
import { CustomerSelect } from './customer-select.tsx';

interface Props {
  filters: ChatFilters;
  sendTypeOptions: readonly SendTypeOption[];
  spaceId: string | null;
  sceneId: number | null;
  onChange: (patch: Partial<ChatFilters>) => void;
}

/** How long typing must pause before the keyword is applied. */
const KEYWORD_PAUSE_MS = 400;

/**
 * The keyword search, typed freely and applied once the typing pauses (or on Enter); the address
 * holds what is applied, and a change from outside (clear filters) replaces what is typed. A timer
 * per keystroke rather than a debounced value: a value changed from outside must never be
 * re-applied by a debounce still holding the old text.
 */
function KeywordInput({ value, onChange }: { value: string; onChange: (keyword: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const applied = useRef(value);
  useEffect(() => {
    if (value === applied.current) return;
    clearTimeout(timer.current);
    applied.current = value;
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const apply = (next: string) => {
    clearTimeout(timer.current);
    if (next.trim() === applied.current.trim()) return;
    applied.current = next;
    onChange(next);
  };
  return (
    <Input
      allowClear
      prefix={<SearchOutlined />}
      placeholder={t('chatHistory.filters.keyword')}
      maxLength={CHAT_LIMITS.keyword}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => apply(next), KEYWORD_PAUSE_MS);
      }}
      onPressEnter={() => apply(text)}
      aria-label={t('chatHistory.filters.keyword')}
      data-testid="chat-filter-keyword"
    />
  );
}

/** The filters above the conversation list. */
export function FilterBar({ filters, sendTypeOptions, spaceId, sceneId, onChange }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // A muted label before the value: "Sender  Human" reads as a field, not as one phrase.
  const label = (text: string) => <span style={{ color: token.colorTextTertiary }}>{text}</span>;
  const half = { flex: 1, minWidth: 0 };
  return (
    <Flex vertical gap={8} data-testid="chat-filters">
      <KeywordInput value={filters.keyword} onChange={(keyword) => onChange({ keyword })} />
      <Flex gap={8}>
        <Select
          style={half}
          prefix={label(t('chatHistory.filters.chatTypeLabel'))}
          value={filters.chatType}
          onChange={(chatType) => onChange({ chatType })}
          options={[
            { value: '', label: t('chatHistory.chatType.all') },
            { value: 'private', label: t('chatHistory.chatType.private') },
            { value: 'group', label: t('chatHistory.chatType.group') },
          ]}
          popupMatchSelectWidth={false}
          data-testid="chat-filter-chat-type"
        />
        <Select
          style={half}
          prefix={label(t('chatHistory.filters.sendTypeLabel'))}
          value={filters.sendType}
          onChange={(sendType) => onChange({ sendType })}
          options={sendTypeOptions.map((value) => ({
            value,
            label: t(`chatHistory.sendType.${value || 'all'}`),
          }))}
          popupMatchSelectWidth={false}
          data-testid="chat-filter-send-type"
        />
      </Flex>
      <Flex gap={8}>
        <TimeFilterSelect style={half} value={filters} onChange={(time) => onChange(time)} testId="chat-filter-time" />
        <div style={half}>
          <CustomerSelect
            spaceId={spaceId}
            sceneId={sceneId}
            value={filters.customerId ? { id: filters.customerId, name: filters.customerName } : null}
            onChange={(customer) => onChange({ customerId: customer?.id ?? null, customerName: customer?.name ?? '' })}
          />
        </div>
      </Flex>
      <TimeRangeField value={filters} onChange={(time) => onChange(time)} testId="chat-filter-range" />
    </Flex>
  );
}
