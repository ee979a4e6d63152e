import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { REPLY_CHARS } from '@athena/contract';
import { Button, Card, Checkbox, Flex, Form, Input, Select, type SelectProps, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Keywords typed one by one (Enter or a comma ends one); no list to pick from. */
export function TagsInput(props: SelectProps<string[]>) {
  return (
    <Select<string[]>
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', '，', '、']}
      style={{ width: '100%' }}
      {...props}
    />
  );
}

/** The browser's time zone, the likeliest one the team works in. */
export const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';

// Monday first, as calendars in China show the week; the server counts 0 as Sunday.
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;
const CLOCK = 'HH:mm';

const clockProps = {
  getValueProps: (value: string | undefined) => ({ value: value ? dayjs(value, CLOCK) : null }),
  normalize: (value: Dayjs | null) => (value ? value.format(CLOCK) : ''),
};

/** Office hours of `ai_full` outside them: from, to (an end before the start runs past midnight), days, zone. */
export function OfficeHoursFields({ current }: { current: string }) {
  const { t } = useTranslation();
  const zones = useMemo(() => {
    const all = new Set(Intl.supportedValuesOf('timeZone'));
    all.add(current);
    all.add(browserTimezone());
    return [...all].map((zone) => ({ value: zone, label: zone }));
  }, [current]);
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="chat-reply-office-hours">
      <Flex gap={12} wrap>
        <Form.Item name={['office_hours', 'start']} label={t('chatHistory.reply.start')} {...clockProps}>
          <TimePicker format={CLOCK} minuteStep={5} allowClear={false} needConfirm={false} />
        </Form.Item>
        <Form.Item name={['office_hours', 'end']} label={t('chatHistory.reply.end')} {...clockProps}>
          <TimePicker format={CLOCK} minuteStep={5} allowClear={false} needConfirm={false} />
        </Form.Item>
        <Form.Item
          name={['office_hours', 'timezone']}
          label={t('chatHistory.reply.timezone')}
          style={{ flex: 1, minWidth: 180 }}
        >
          <Select showSearch options={zones} data-testid="chat-reply-timezone" />
        </Form.Item>
      </Flex>
      <Form.Item name={['office_hours', 'days']} label={t('chatHistory.reply.days')} style={{ marginBottom: 0 }}>
        <Checkbox.Group options={WEEK.map((day) => ({ value: day, label: t(`chatHistory.reply.weekday.${day}`) }))} />
      </Form.Item>
    </Card>
  );
}

/** Fixed scripts: a customer message containing one of a row's keywords gets the row's reply. */
export function KeywordRepliesField() {
  const { t } = useTranslation();
  const required = { required: true, message: t('chatHistory.reply.rowRequired') };
  return (
    <Form.List name="keyword_replies">
      {(rows, { add, remove }) => (
        <Flex vertical gap={8} style={{ marginBottom: 16 }} data-testid="chat-reply-keywords">
          {rows.length === 0 ? (
            <Typography.Text type="secondary">{t('chatHistory.reply.noKeywordReplies')}</Typography.Text>
          ) : null}
          {rows.map((row, index) => (
            <Card
              key={row.key}
              size="small"
              title={t('chatHistory.reply.rowTitle', { n: index + 1 })}
              extra={
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(row.name)}
                  aria-label={t('chatHistory.reply.remove')}
                />
              }
              data-testid="chat-reply-keyword-row"
            >
              <Form.Item name={[row.name, 'keywords']} label={t('chatHistory.reply.keywords')} rules={[required]}>
                <TagsInput placeholder={t('chatHistory.reply.keywordsPlaceholder')} maxCount={20} />
              </Form.Item>
              <Form.Item
                name={[row.name, 'reply']}
                label={t('chatHistory.reply.replyText')}
                rules={[required]}
                style={{ marginBottom: 0 }}
              >
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={REPLY_CHARS} showCount />
              </Form.Item>
            </Card>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ keywords: [], reply: '' })}
            data-testid="chat-reply-keyword-add"
          >
            {t('chatHistory.reply.addKeywordReply')}
          </Button>
        </Flex>
      )}
    </Form.List>
  );
}
