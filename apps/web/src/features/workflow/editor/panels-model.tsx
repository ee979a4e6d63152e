import { Form, Input, InputNumber, Select, Slider, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChatModelOptions } from '../../agents/chat-model-options.tsx';
import { ModelOverride } from './model-override.tsx';
import { Rows, SelectorSelect, TemplateField } from './panel-fields.tsx';
import type { PanelProps } from './panel-types.ts';

type ModelNode = PanelProps<'llm'> | PanelProps<'classifier'> | PanelProps<'extractor'>;

/** The chat key (or the space's default), the model name and sampling, shared by the model kinds. */
function ModelFields({ node, set, spaceId }: ModelNode) {
  const { t } = useTranslation();
  const choices = useChatModelOptions(spaceId, 'wf-model-option');
  const data = node.data;
  const patch = set as (patch: Partial<typeof data>, key: string) => void;
  const options = [{ value: '', label: t('workflowEditor.fields.modelDefault') }, ...choices.groups];
  const key = data.model_key_id
    ? choices.teamKeys.find((item) => item.id === data.model_key_id)
    : choices.teamKeys.find((item) => item.is_default);
  const keyVersion = key?.version ?? null;
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.model')}>
        <Select
          value={data.model_key_id ?? ''}
          options={options}
          loading={choices.loading}
          onChange={(value: string) => patch({ model_key_id: value || null }, 'model_key_id')}
          data-testid="wf-field-model"
        />
      </Form.Item>
      <ModelOverride
        value={data.model}
        keyVersion={keyVersion}
        onChange={(value) => patch({ model: value }, 'model')}
      />
      <Form.Item label={t('workflowEditor.fields.temperature')}>
        <Slider
          min={0}
          max={2}
          step={0.1}
          value={data.temperature}
          onChange={(value) => patch({ temperature: value }, 'temperature')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.maxTokens')}>
        <InputNumber
          min={1}
          max={32_000}
          value={data.max_tokens}
          placeholder={t('workflowEditor.fields.noLimit')}
          onChange={(value) => patch({ max_tokens: value ?? null }, 'max_tokens')}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </>
  );
}

function JsonSchemaField({ node, set }: PanelProps<'llm'>) {
  const { t } = useTranslation();
  const [text, setText] = useState(node.data.json_schema ? JSON.stringify(node.data.json_schema, null, 2) : '');
  const [bad, setBad] = useState(false);
  const on = node.data.json_schema !== null || text !== '';
  return (
    <Form.Item
      label={t('workflowEditor.fields.jsonSchema')}
      extra={t('workflowEditor.fields.jsonSchemaHelp')}
      validateStatus={bad ? 'error' : undefined}
      help={bad ? t('workflowEditor.fields.jsonInvalid') : undefined}
    >
      <Switch
        size="small"
        checked={on}
        onChange={(checked) => {
          setText(checked ? '{\n  "type": "object",\n  "properties": {}\n}' : '');
          set({ json_schema: checked ? { type: 'object', properties: {} } : null }, 'json_schema');
        }}
      />
      {on ? (
        <Input.TextArea
          value={text}
          autoSize={{ minRows: 4, maxRows: 14 }}
          style={{ marginTop: 8, fontFamily: 'ui-monospace, monospace', fontSize: 12 }}
          onChange={(event) => {
            setText(event.target.value);
            try {
              const parsed: unknown = JSON.parse(event.target.value);
              const ok = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
              setBad(!ok);
              if (ok) set({ json_schema: parsed as Record<string, unknown> }, 'json_schema');
            } catch {
              setBad(true);
            }
          }}
        />
      ) : null}
    </Form.Item>
  );
}

export function LlmPanel(props: PanelProps<'llm'>) {
  const { t } = useTranslation();
  const { node, set } = props;
  return (
    <>
      <ModelFields {...props} />
      <Form.Item label={t('workflowEditor.fields.systemPrompt')}>
        <TemplateField
          nodeId={node.id}
          value={node.data.system_prompt}
          onChange={(value) => set({ system_prompt: value }, 'system_prompt')}
          testId="wf-field-system-prompt"
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.userPrompt')}>
        <TemplateField
          nodeId={node.id}
          value={node.data.user_prompt}
          onChange={(value) => set({ user_prompt: value }, 'user_prompt')}
          testId="wf-field-user-prompt"
        />
      </Form.Item>
      <JsonSchemaField key={node.id} {...props} />
    </>
  );
}

export function ClassifierPanel(props: PanelProps<'classifier'>) {
  const { t } = useTranslation();
  const { node, set } = props;
  const nextId = () => {
    const taken = new Set(node.data.classes.map((item) => item.id));
    for (let n = node.data.classes.length + 1; ; n++) if (!taken.has(`class_${n}`)) return `class_${n}`;
  };
  return (
    <>
      <ModelFields {...props} />
      <Form.Item label={t('workflowEditor.fields.query')}>
        <SelectorSelect nodeId={node.id} value={node.data.query} onChange={(query) => set({ query }, 'query')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.classes')}>
        <Rows
          items={node.data.classes}
          max={20}
          onChange={(classes) => classes.length > 0 && set({ classes }, 'classes')}
          create={() => ({ id: nextId(), name: '' })}
          render={(item, update) => (
            <Input
              value={item.name}
              placeholder={t('workflowEditor.fields.className')}
              onChange={(event) => update({ ...item, name: event.target.value })}
            />
          )}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.instruction')}>
        <TemplateField
          nodeId={node.id}
          value={node.data.instruction}
          rows={2}
          onChange={(value) => set({ instruction: value }, 'instruction')}
        />
      </Form.Item>
    </>
  );
}

const PARAMETER_TYPES = ['string', 'number', 'boolean', 'array[string]', 'array[number]', 'array[object]'] as const;

export function ExtractorPanel(props: PanelProps<'extractor'>) {
  const { t } = useTranslation();
  const { node, set } = props;
  return (
    <>
      <ModelFields {...props} />
      <Form.Item label={t('workflowEditor.fields.query')}>
        <SelectorSelect nodeId={node.id} value={node.data.query} onChange={(query) => set({ query }, 'query')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.parameters')}>
        <Rows
          items={node.data.parameters}
          onChange={(parameters) => set({ parameters }, 'parameters')}
          create={() => ({
            name: `param_${node.data.parameters.length + 1}`,
            type: 'string' as const,
            description: '',
            required: false,
          })}
          render={(item, update) => (
            <>
              <Input
                value={item.name}
                placeholder={t('workflowEditor.panel.name')}
                onChange={(event) => update({ ...item, name: event.target.value })}
              />
              <Select
                value={item.type}
                options={PARAMETER_TYPES.map((type) => ({ value: type, label: type }))}
                onChange={(type) => update({ ...item, type })}
              />
              <Input
                value={item.description}
                placeholder={t('workflowEditor.fields.parameterDescription')}
                onChange={(event) => update({ ...item, description: event.target.value })}
              />
              <Switch
                size="small"
                checked={item.required}
                checkedChildren={t('workflowEditor.fields.required')}
                unCheckedChildren={t('workflowEditor.fields.optional')}
                onChange={(required) => update({ ...item, required })}
                style={{ alignSelf: 'flex-start' }}
              />
            </>
          )}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.instruction')}>
        <TemplateField
          nodeId={node.id}
          value={node.data.instruction}
          rows={2}
          onChange={(value) => set({ instruction: value }, 'instruction')}
        />
      </Form.Item>
    </>
  );
}
