import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_SUGGESTIONS } from './editor-values.ts';

/** Up to five questions a visitor can click instead of typing. */
export function SuggestedQuestionsField({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      label={t('agents.fields.suggestions')}
      extra={t('agents.fields.suggestionsHelp', { max: MAX_SUGGESTIONS })}
    >
      <Form.List name="suggested_questions">
        {(fields, { add, remove }) => (
          <Flex vertical gap={8} data-testid="agent-suggestions">
            {fields.map((field, index) => (
              <Flex key={field.key} gap={8} align="flex-start">
                <Form.Item
                  name={field.name}
                  noStyle
                  rules={[{ max: 200, message: t('agents.fields.suggestionTooLong') }]}
                >
                  <Input
                    maxLength={200}
                    placeholder={t('agents.fields.suggestionPlaceholder', { n: index + 1 })}
                    data-testid="agent-suggestion-input"
                  />
                </Form.Item>
                {disabled ? null : (
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('agents.fields.suggestionRemove')}
                    data-testid="agent-suggestion-remove"
                  />
                )}
              </Flex>
            ))}
            {disabled ? null : (
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add('')}
                disabled={fields.length >= MAX_SUGGESTIONS}
                data-testid="agent-suggestion-add"
                style={{ width: 'fit-content' }}
              >
                {fields.length >= MAX_SUGGESTIONS
                  ? t('agents.fields.suggestionsFull', { max: MAX_SUGGESTIONS })
                  : t('agents.fields.suggestionAdd')}
              </Button>
            )}
          </Flex>
        )}
      </Form.List>
    </Form.Item>
  );
}
