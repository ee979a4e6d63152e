import { Alert, Flex, Form, InputNumber, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHUNK_LIMITS, type ChunkingValues, chunkingProblem } from './chunking.ts';

const SUGGESTED_SEPARATORS = ['\\n\\n', '\\n', '###', '。', '---'];

/** Automatic chunking, or custom size, overlap and separators within the contract's bounds. */
export function ChunkingForm({
  value,
  onChange,
}: {
  value: ChunkingValues;
  onChange: (value: ChunkingValues) => void;
}) {
  const { t } = useTranslation();
  const problem = chunkingProblem(value);
  const set = (change: Partial<ChunkingValues>) => onChange({ ...value, ...change });
  return (
    <Flex vertical gap={12} data-testid="chunking-form">
      <Radio.Group
        value={value.mode}
        onChange={(event) => set({ mode: event.target.value })}
        data-testid="chunking-mode"
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
      >
        <Radio value="auto" data-testid="chunking-auto">
          <Typography.Text strong>{t('knowledge.chunking.auto')}</Typography.Text>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {t('knowledge.chunking.autoHelp')}
          </Typography.Text>
        </Radio>
        <Radio value="custom" data-testid="chunking-custom">
          <Typography.Text strong>{t('knowledge.chunking.custom')}</Typography.Text>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {t('knowledge.chunking.customHelp')}
          </Typography.Text>
        </Radio>
      </Radio.Group>
      {value.mode === 'custom' ? (
        <Form layout="vertical" component="div" style={{ paddingInlineStart: 24 }}>
          <Flex gap={16} wrap>
            <Form.Item
              label={t('knowledge.chunking.size')}
              extra={t('knowledge.chunking.sizeHelp', CHUNK_LIMITS.size)}
              style={{ marginBottom: 12 }}
            >
              <InputNumber
                min={CHUNK_LIMITS.size.min}
                max={CHUNK_LIMITS.size.max}
                step={50}
                precision={0}
                value={value.size}
                onChange={(size) => set({ size: size ?? CHUNK_LIMITS.size.min })}
                style={{ width: 140 }}
                data-testid="chunking-size"
              />
            </Form.Item>
            <Form.Item
              label={t('knowledge.chunking.overlap')}
              extra={t('knowledge.chunking.overlapHelp')}
              style={{ marginBottom: 12 }}
            >
              <InputNumber
                min={CHUNK_LIMITS.overlap.min}
                max={CHUNK_LIMITS.overlap.max}
                step={10}
                precision={0}
                value={value.overlap}
                onChange={(overlap) => set({ overlap: overlap ?? 0 })}
                style={{ width: 140 }}
                data-testid="chunking-overlap"
              />
            </Form.Item>
          </Flex>
          <Form.Item
            label={t('knowledge.chunking.separators')}
            extra={t('knowledge.chunking.separatorsHelp', { max: CHUNK_LIMITS.separators.count })}
            style={{ marginBottom: 0 }}
          >
            <Select
              mode="tags"
              value={value.separators}
              onChange={(separators: string[]) => set({ separators })}
              options={SUGGESTED_SEPARATORS.map((separator) => ({ value: separator, label: separator }))}
              maxCount={CHUNK_LIMITS.separators.count}
              placeholder={t('knowledge.chunking.separatorsPlaceholder')}
              data-testid="chunking-separators"
            />
          </Form.Item>
        </Form>
      ) : null}
      {problem ? (
        <Alert
          type="error"
          showIcon
          data-testid="chunking-problem"
          title={t(`knowledge.chunking.errors.${problem}`, {
            ...CHUNK_LIMITS.size,
            length: CHUNK_LIMITS.separators.length,
          })}
        />
      ) : null}
    </Flex>
  );
}
