import { RETRIEVAL_MODES } from '@athena/contract';
import { Flex, Form, InputNumber, Segmented, Slider, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * How a base searches: full text, vector or both fused, how many segments and an optional score
 * threshold. Used by the settings form (saved on the base) and the hit test (this test only).
 * Field names: mode, top_k, use_threshold, threshold.
 */
export function RetrievalFields({ testPrefix }: { testPrefix: string }) {
  const { t } = useTranslation();
  const useThreshold = Form.useWatch('use_threshold');
  return (
    <>
      <Form.Item name="mode" label={t('knowledge.retrieval.mode')} extra={t('knowledge.retrieval.modeHelp')}>
        <Segmented
          data-testid={`${testPrefix}-mode`}
          options={RETRIEVAL_MODES.map((mode) => ({
            value: mode,
            label: <span data-testid={`${testPrefix}-mode-${mode}`}>{t(`knowledge.retrieval.modes.${mode}`)}</span>,
          }))}
        />
      </Form.Item>
      <Flex gap={24} wrap>
        <Form.Item name="top_k" label={t('knowledge.retrieval.topK')} extra={t('knowledge.retrieval.topKHelp')}>
          <InputNumber min={1} max={20} precision={0} style={{ width: 120 }} data-testid={`${testPrefix}-top-k`} />
        </Form.Item>
        <Form.Item label={t('knowledge.retrieval.threshold')} extra={t('knowledge.retrieval.thresholdHelp')}>
          <Flex align="center" gap={12}>
            <Form.Item name="use_threshold" valuePropName="checked" noStyle>
              <Switch aria-label={t('knowledge.retrieval.threshold')} data-testid={`${testPrefix}-threshold-switch`} />
            </Form.Item>
            <Form.Item name="threshold" noStyle>
              <Slider min={0} max={1} step={0.05} disabled={!useThreshold} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="threshold" noStyle>
              <InputNumber
                min={0}
                max={1}
                step={0.05}
                precision={2}
                disabled={!useThreshold}
                style={{ width: 80 }}
                aria-label={t('knowledge.retrieval.threshold')}
                data-testid={`${testPrefix}-threshold`}
              />
            </Form.Item>
          </Flex>
        </Form.Item>
      </Flex>
    </>
  );
}
