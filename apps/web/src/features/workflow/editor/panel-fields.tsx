import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CONDITION_OPERATORS, type Selector } from '@athena/contract';
import type { OfferedVariable } from '@athena/workflow-engine';
import { Button, Dropdown, Flex, Input, Select, Tag, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { type ReactNode, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { keySelector, referenceOf, selectorKey, useOffered } from './offered.ts';

function groupOptions(offered: OfferedVariable[]) {
  const groups = new Map<string, { label: string; options: { value: string; label: ReactNode }[] }>();
  for (const variable of offered) {
    const group = groups.get(variable.node_id) ?? { label: variable.node_title, options: [] };
    group.options.push({
      value: selectorKey([variable.node_id, variable.name]),
      label: (
        <Flex justify="space-between" gap={8}>
          <span>{variable.name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 11 }}>
            {variable.type}
          </Typography.Text>
        </Flex>
      ),
    });
    groups.set(variable.node_id, group);
  }
  return [...groups.values()];
}

/** Picks one variable the node may read; a value it may no longer read shows as missing. */
export function SelectorSelect({
  nodeId,
  value,
  onChange,
  testId,
  offer,
}: {
  nodeId: string;
  value: Selector | null;
  onChange: (selector: Selector) => void;
  testId?: string;
  /** What to offer instead of what the node reads (an iteration's output is a body node's). */
  offer?: OfferedVariable[];
}) {
  const { t } = useTranslation();
  const reads = useOffered(nodeId);
  const offered = offer ?? reads;
  const options = useMemo(() => groupOptions(offered), [offered]);
  const key = value ? selectorKey(value) : undefined;
  const known = key !== undefined && offered.some((item) => selectorKey([item.node_id, item.name]) === key);
  const missing =
    key !== undefined && !known && value
      ? [
          {
            label: t('workflowEditor.picker.missing'),
            options: [{ value: key, label: <Tag color="error">{value.join('.')}</Tag> }],
          },
        ]
      : [];
  return (
    <Select
      showSearch
      value={key}
      options={[...options, ...missing]}
      placeholder={t('workflowEditor.picker.choose')}
      onChange={(next: string) => onChange(keySelector(next))}
      labelRender={({ value: chosen }) => {
        const [nodeId, name] = keySelector(String(chosen));
        const source = offered.find((item) => item.node_id === nodeId);
        return known ? `${source?.node_title ?? nodeId} · ${name}` : <Tag color="error">{value?.join('.')}</Tag>;
      }}
      style={{ width: '100%', minWidth: 0 }}
      data-testid={testId}
      popupMatchSelectWidth={false}
    />
  );
}

/** A text with `{{#node.output#}}` references; the menu inserts one where the cursor is. */
export function TemplateField({
  nodeId,
  value,
  onChange,
  rows = 3,
  testId,
  mono,
}: {
  nodeId: string;
  value: string;
  onChange: (text: string) => void;
  rows?: number;
  testId?: string;
  mono?: boolean;
}) {
  const { t } = useTranslation();
  const offered = useOffered(nodeId);
  const ref = useRef<TextAreaRef>(null);
  const insert = (reference: string) => {
    const area = ref.current?.resizableTextArea?.textArea;
    const start = area?.selectionStart ?? value.length;
    const end = area?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + reference + value.slice(end));
  };
  const items = offered.map((variable) => ({
    key: selectorKey([variable.node_id, variable.name]),
    label: `${variable.node_title} · ${variable.name}`,
    onClick: () => insert(referenceOf(variable)),
  }));
  return (
    <Flex vertical gap={4}>
      <Input.TextArea
        ref={ref}
        value={value}
        autoSize={{ minRows: rows, maxRows: 16 }}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
        style={mono ? { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 } : undefined}
      />
      <Dropdown menu={{ items, style: { maxHeight: 320, overflowY: 'auto' } }} trigger={['click']}>
        <Button
          size="small"
          type="dashed"
          icon={<PlusOutlined />}
          style={{ alignSelf: 'flex-start' }}
          data-testid={testId ? `${testId}-insert` : undefined}
        >
          {t('workflowEditor.picker.insert')}
        </Button>
      </Dropdown>
    </Flex>
  );
}

/** Rows with a remove button and an add button under them. */
export function Rows<T>({
  items,
  onChange,
  create,
  render,
  max = 50,
  testId,
}: {
  items: readonly T[];
  onChange: (items: T[]) => void;
  create: () => T;
  render: (item: T, update: (next: T) => void, index: number) => ReactNode;
  max?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6} data-testid={testId}>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own; order is their identity
        <Flex key={index} gap={4} align="flex-start">
          <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
            {render(item, (next) => onChange(items.map((other, at) => (at === index ? next : other))), index)}
          </Flex>
          <Button
            type="text"
            size="small"
            icon={<DeleteOutlined />}
            aria-label={t('workflowEditor.panel.removeRow')}
            onClick={() => onChange(items.filter((_, at) => at !== index))}
          />
        </Flex>
      ))}
      {items.length < max ? (
        <Button
          size="small"
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => onChange([...items, create()])}
          data-testid={testId ? `${testId}-add` : undefined}
        >
          {t('workflowEditor.panel.addRow')}
        </Button>
      ) : null}
    </Flex>
  );
}

type Bound = { name: string; selector: Selector };

/** Named values taken from elsewhere in the graph (code, template, end, sub-workflow). */
export function BoundVariables({
  nodeId,
  value,
  onChange,
}: {
  nodeId: string;
  value: Bound[];
  onChange: (next: Bound[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Rows
      items={value}
      onChange={onChange}
      testId="wf-bound-variables"
      create={() => ({ name: `var_${value.length + 1}`, selector: ['sys', 'query'] })}
      render={(item, update) => (
        <Flex gap={4}>
          <Input
            value={item.name}
            placeholder={t('workflowEditor.panel.name')}
            onChange={(event) => update({ ...item, name: event.target.value })}
            style={{ width: '40%' }}
            data-testid="wf-bound-name"
          />
          <SelectorSelect
            nodeId={nodeId}
            value={item.selector}
            onChange={(selector) => update({ ...item, selector })}
            testId="wf-bound-selector"
          />
        </Flex>
      )}
    />
  );
}

type Condition = { selector: Selector; operator: (typeof CONDITION_OPERATORS)[number]; value: string };
export type ConditionGroup = { logical_operator: 'and' | 'or'; conditions: Condition[] };

export function Conditions({
  nodeId,
  value,
  onChange,
  offer,
}: {
  nodeId: string;
  value: ConditionGroup;
  onChange: (next: ConditionGroup) => void;
  offer?: OfferedVariable[];
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6}>
      <Select
        size="small"
        value={value.logical_operator}
        style={{ width: 120 }}
        options={(['and', 'or'] as const).map((op) => ({ value: op, label: t(`workflowEditor.conditions.${op}`) }))}
        onChange={(logical_operator) => onChange({ ...value, logical_operator })}
      />
      <Rows
        items={value.conditions}
        onChange={(conditions) => onChange({ ...value, conditions })}
        create={(): Condition => ({ selector: ['sys', 'query'], operator: 'contains', value: '' })}
        render={(item, update) => (
          <>
            <SelectorSelect
              nodeId={nodeId}
              offer={offer}
              value={item.selector}
              onChange={(selector) => update({ ...item, selector })}
            />
            <Flex gap={4}>
              <Select
                value={item.operator}
                style={{ width: 140 }}
                options={CONDITION_OPERATORS.map((op) => ({
                  value: op,
                  label: t(`workflowEditor.conditions.operators.${op}`),
                }))}
                onChange={(operator) => update({ ...item, operator })}
              />
              {item.operator === 'empty' || item.operator === 'not_empty' ? null : (
                <Input value={item.value} onChange={(event) => update({ ...item, value: event.target.value })} />
              )}
            </Flex>
          </>
        )}
      />
    </Flex>
  );
}
