import { START_INPUT_TYPES, VALUE_TYPES } from '@athena/contract';
import { Button, Flex, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBodyOffered } from './offered.ts';
import { BoundVariables, Conditions, Rows, SelectorSelect, TemplateField } from './panel-fields.tsx';
import type { PanelProps } from './panel-types.ts';

/** The value types as Select options (the type names are the same in every language). */
export const VALUE_TYPE_OPTIONS = VALUE_TYPES.map((type) => ({ value: type, label: type }));

/** A row of a list of named, typed things (start inputs, loop variables, code outputs): name, type, then `children`. */
export function NameTypeFields<Type extends string, Item extends { name: string; type: Type }>({
  item,
  update,
  options,
  typeWidth,
  children,
}: {
  item: Item;
  update: (next: Item) => void;
  options: { value: Type; label: string }[];
  typeWidth: number;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={4}>
      <Input
        value={item.name}
        placeholder={t('workflowEditor.panel.name')}
        onChange={(event) => update({ ...item, name: event.target.value })}
      />
      <Select
        value={item.type}
        style={{ width: typeWidth }}
        options={options}
        onChange={(type) => update({ ...item, type })}
      />
      {children}
    </Flex>
  );
}

export function StartPanel({ node, set }: PanelProps<'start'>) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('workflowEditor.fields.inputs')} extra={t('workflowEditor.fields.inputsHelp')}>
      <Rows
        items={node.data.inputs}
        testId="wf-field-inputs"
        onChange={(inputs) => set({ inputs }, 'inputs')}
        create={() => ({
          name: `input_${node.data.inputs.length + 1}`,
          label: '',
          type: 'text' as const,
          required: true,
          options: [],
          max_length: null,
        })}
        render={(item, update) => (
          <>
            <NameTypeFields
              item={item}
              update={update}
              typeWidth={130}
              options={START_INPUT_TYPES.map((type) => ({
                value: type,
                label: t(`workflowEditor.inputTypes.${type}`),
              }))}
            />
            <Flex gap={4} align="center">
              <Input
                value={item.label}
                placeholder={t('workflowEditor.fields.label')}
                onChange={(event) => update({ ...item, label: event.target.value })}
              />
              <Switch
                size="small"
                checked={item.required}
                checkedChildren={t('workflowEditor.fields.required')}
                unCheckedChildren={t('workflowEditor.fields.optional')}
                onChange={(required) => update({ ...item, required })}
              />
            </Flex>
            {item.type === 'select' ? (
              <Select
                mode="tags"
                value={item.options}
                placeholder={t('workflowEditor.fields.options')}
                onChange={(options: string[]) => update({ ...item, options })}
              />
            ) : null}
          </>
        )}
      />
    </Form.Item>
  );
}

export function EndPanel({ node, set }: PanelProps<'end'>) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('workflowEditor.fields.outputs')}>
      <BoundVariables nodeId={node.id} value={node.data.outputs} onChange={(outputs) => set({ outputs }, 'outputs')} />
    </Form.Item>
  );
}

export function AnswerPanel({ node, set }: PanelProps<'answer'>) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('workflowEditor.fields.answerText')}>
      <TemplateField
        nodeId={node.id}
        value={node.data.text}
        rows={4}
        onChange={(text) => set({ text }, 'text')}
        testId="wf-field-answer"
      />
    </Form.Item>
  );
}

export function IfElsePanel({ node, set }: PanelProps<'if_else'>) {
  const { t } = useTranslation();
  const cases = node.data.cases;
  const nextId = () => {
    const taken = new Set(cases.map((item) => item.id));
    for (let n = cases.length + 1; ; n++) if (!taken.has(`case_${n}`)) return `case_${n}`;
  };
  return (
    <Flex vertical gap={12}>
      {cases.map((item, index) => (
        <Flex vertical gap={6} key={item.id} style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 8 }}>
          <Flex justify="space-between" align="center">
            <Typography.Text strong>
              {index === 0 ? t('workflowEditor.handles.if') : t('workflowEditor.handles.elif', { n: index + 1 })}
            </Typography.Text>
            {cases.length > 1 ? (
              <Button
                size="small"
                type="text"
                danger
                onClick={() => set({ cases: cases.filter((other) => other.id !== item.id) }, 'cases')}
              >
                {t('workflowEditor.panel.removeRow')}
              </Button>
            ) : null}
          </Flex>
          <Conditions
            nodeId={node.id}
            value={item}
            onChange={(group) =>
              set(
                { cases: cases.map((other) => (other.id === item.id ? { ...other, ...group } : other)) },
                `case:${item.id}`,
              )
            }
          />
        </Flex>
      ))}
      {cases.length < 20 ? (
        <Button
          type="dashed"
          onClick={() => set({ cases: [...cases, { id: nextId(), logical_operator: 'and', conditions: [] }] }, 'cases')}
        >
          {t('workflowEditor.fields.addCase')}
        </Button>
      ) : null}
      <Typography.Text type="secondary">{t('workflowEditor.fields.elseHelp')}</Typography.Text>
    </Flex>
  );
}

export function IterationPanel({ node, set }: PanelProps<'iteration'>) {
  const { t } = useTranslation();
  const data = node.data;
  const bodyOutputs = useBodyOffered(node.id, false);
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.list')}>
        <SelectorSelect nodeId={node.id} value={data.list} onChange={(list) => set({ list }, 'list')} />
      </Form.Item>
      <Form.Item
        label={t('workflowEditor.fields.iterationOutput')}
        extra={t('workflowEditor.fields.iterationOutputHelp')}
      >
        <SelectorSelect
          nodeId={node.id}
          offer={bodyOutputs}
          value={data.output}
          onChange={(output) => set({ output }, 'output')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.parallel')}>
        <Flex gap={8} align="center">
          <Switch checked={data.parallel} onChange={(parallel) => set({ parallel }, 'parallel')} />
          {data.parallel ? (
            <InputNumber
              min={1}
              max={10}
              value={data.parallel_limit}
              onChange={(value) => set({ parallel_limit: value ?? 4 }, 'parallel_limit')}
            />
          ) : null}
        </Flex>
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.errorMode')}>
        <Select
          value={data.error_mode}
          options={(['terminate', 'continue', 'remove'] as const).map((mode) => ({
            value: mode,
            label: t(`workflowEditor.errorModes.${mode}`),
          }))}
          onChange={(error_mode) => set({ error_mode }, 'error_mode')}
        />
      </Form.Item>
    </>
  );
}

export function LoopPanel({ node, set }: PanelProps<'loop'>) {
  const { t } = useTranslation();
  const data = node.data;
  const bodyReads = useBodyOffered(node.id, true);
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.loopVariables')}>
        <Rows
          items={data.variables}
          max={20}
          onChange={(variables) => set({ variables }, 'variables')}
          create={() => ({ name: `var_${data.variables.length + 1}`, type: 'string' as const, initial: '' })}
          render={(item, update) => (
            <NameTypeFields item={item} update={update} typeWidth={100} options={VALUE_TYPE_OPTIONS}>
              <Input
                value={item.initial}
                placeholder={t('workflowEditor.fields.initial')}
                onChange={(event) => update({ ...item, initial: event.target.value })}
              />
            </NameTypeFields>
          )}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.breakWhen')}>
        <Conditions
          nodeId={node.id}
          offer={bodyReads}
          value={data.break_when}
          onChange={(break_when) => set({ break_when }, 'break_when')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.maxCount')}>
        <InputNumber
          min={1}
          max={1000}
          value={data.max_count}
          onChange={(value) => set({ max_count: value ?? 10 }, 'max_count')}
        />
      </Form.Item>
    </>
  );
}

export function AggregatorPanel({ node, set }: PanelProps<'aggregator'>) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.aggregate')} extra={t('workflowEditor.fields.aggregateHelp')}>
        <Rows
          items={node.data.selectors}
          onChange={(selectors) => selectors.length > 0 && set({ selectors }, 'selectors')}
          create={() => ['sys', 'query']}
          render={(item, update) => <SelectorSelect nodeId={node.id} value={item} onChange={update} />}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.outputType')}>
        <Select
          value={node.data.output_type}
          options={VALUE_TYPE_OPTIONS}
          onChange={(output_type) => set({ output_type }, 'output_type')}
        />
      </Form.Item>
    </>
  );
}

const OPERATIONS = ['set', 'append', 'extend', 'clear', 'add', 'subtract'] as const;

export function AssignerPanel({ node, set }: PanelProps<'assigner'>) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('workflowEditor.fields.assignments')}>
      <Rows
        items={node.data.items}
        onChange={(items) => items.length > 0 && set({ items }, 'items')}
        create={() => ({ target: ['sys', 'query'], operation: 'set' as const, source: null, constant: '' })}
        render={(item, update) => (
          <>
            <SelectorSelect nodeId={node.id} value={item.target} onChange={(target) => update({ ...item, target })} />
            <Select
              value={item.operation}
              options={OPERATIONS.map((op) => ({ value: op, label: t(`workflowEditor.operations.${op}`) }))}
              onChange={(operation) => update({ ...item, operation })}
            />
            {item.operation === 'clear' ? null : (
              <Flex gap={4} align="center">
                <Switch
                  size="small"
                  checked={item.source !== null}
                  checkedChildren={t('workflowEditor.fields.fromVariable')}
                  unCheckedChildren={t('workflowEditor.fields.constant')}
                  onChange={(on) => update({ ...item, source: on ? ['sys', 'query'] : null })}
                />
                {item.source ? (
                  <SelectorSelect
                    nodeId={node.id}
                    value={item.source}
                    onChange={(source) => update({ ...item, source })}
                  />
                ) : (
                  <Input
                    value={item.constant}
                    onChange={(event) => update({ ...item, constant: event.target.value })}
                  />
                )}
              </Flex>
            )}
          </>
        )}
      />
    </Form.Item>
  );
}

export function ListOperatorPanel({ node, set }: PanelProps<'list_operator'>) {
  const { t } = useTranslation();
  const data = node.data;
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.list')}>
        <SelectorSelect nodeId={node.id} value={data.list} onChange={(list) => set({ list }, 'list')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.filter')}>
        <Switch
          size="small"
          checked={data.filter !== null}
          onChange={(on) => set({ filter: on ? { logical_operator: 'and', conditions: [] } : null }, 'filter')}
        />
        {data.filter ? (
          <Conditions nodeId={node.id} value={data.filter} onChange={(filter) => set({ filter }, 'filter')} />
        ) : null}
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.sort')}>
        <Flex gap={4} align="center">
          <Switch
            size="small"
            checked={data.sort !== null}
            onChange={(on) => set({ sort: on ? { key: '', order: 'asc' } : null }, 'sort')}
          />
          {data.sort ? (
            <>
              <Input
                value={data.sort.key}
                placeholder={t('workflowEditor.fields.sortKey')}
                onChange={(event) =>
                  set({ sort: { order: data.sort?.order ?? 'asc', key: event.target.value } }, 'sort')
                }
              />
              <Select
                value={data.sort.order}
                style={{ width: 110 }}
                options={(['asc', 'desc'] as const).map((order) => ({
                  value: order,
                  label: t(`workflowEditor.fields.${order}`),
                }))}
                onChange={(order) => set({ sort: { key: data.sort?.key ?? '', order } }, 'sort')}
              />
            </>
          ) : null}
        </Flex>
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.limit')}>
        <InputNumber
          min={1}
          max={10_000}
          value={data.limit}
          placeholder={t('workflowEditor.fields.noLimit')}
          onChange={(value) => set({ limit: value ?? null }, 'limit')}
        />
      </Form.Item>
    </>
  );
}
