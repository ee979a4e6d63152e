import { workflowRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useAgentList } from '../../agents/agent-queries.ts';
import { useKnowledgeList } from '../../knowledge/knowledge-queries.ts';
import { BoundVariables, Rows, SelectorSelect, TemplateField } from './panel-fields.tsx';
import type { PanelProps } from './panel-types.ts';
import { NameTypeFields, VALUE_TYPE_OPTIONS } from './panels-flow.tsx';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 };

export function KnowledgePanel({ node, set, spaceId }: PanelProps<'knowledge'>) {
  const { t } = useTranslation();
  const bases = useKnowledgeList(spaceId, '', '');
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.query')}>
        <SelectorSelect nodeId={node.id} value={node.data.query} onChange={(query) => set({ query }, 'query')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.knowledgeBases')}>
        <Select
          mode="multiple"
          value={node.data.knowledge_ids}
          loading={bases.isPending}
          maxCount={20}
          options={(bases.data?.items ?? []).map((base) => ({ value: base.id, label: base.name }))}
          onChange={(knowledge_ids: string[]) => set({ knowledge_ids }, 'knowledge_ids')}
          data-testid="wf-field-knowledge"
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.topK')}>
        <InputNumber
          min={1}
          max={20}
          value={node.data.top_k}
          onChange={(value) => set({ top_k: value ?? 5 }, 'top_k')}
        />
      </Form.Item>
    </>
  );
}

export function TemplatePanel({ node, set }: PanelProps<'template'>) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.variables')}>
        <BoundVariables
          nodeId={node.id}
          value={node.data.variables}
          onChange={(variables) => set({ variables }, 'variables')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.template')} extra={t('workflowEditor.fields.templateHelp')}>
        <TemplateField
          nodeId={node.id}
          mono
          rows={6}
          value={node.data.template}
          onChange={(template) => set({ template }, 'template')}
        />
      </Form.Item>
    </>
  );
}

export function CodePanel({ node, set }: PanelProps<'code'>) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.language')}>
        <Select
          value={node.data.language}
          options={[
            { value: 'javascript', label: 'JavaScript' },
            { value: 'python3', label: 'Python 3' },
          ]}
          onChange={(language) => set({ language }, 'language')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.variables')}>
        <BoundVariables
          nodeId={node.id}
          value={node.data.variables}
          onChange={(variables) => set({ variables }, 'variables')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.code')} extra={t('workflowEditor.fields.codeHelp')}>
        <Input.TextArea
          value={node.data.code}
          autoSize={{ minRows: 8, maxRows: 24 }}
          spellCheck={false}
          style={MONO}
          onChange={(event) => set({ code: event.target.value }, 'code')}
          data-testid="wf-field-code"
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.outputs')}>
        <Rows
          items={node.data.outputs}
          onChange={(outputs) => set({ outputs }, 'outputs')}
          create={() => ({ name: `output_${node.data.outputs.length + 1}`, type: 'string' as const })}
          render={(item, update) => (
            <NameTypeFields item={item} update={update} typeWidth={110} options={VALUE_TYPE_OPTIONS} />
          )}
        />
      </Form.Item>
    </>
  );
}

type Pair = { key: string; value: string };
function Pairs({ items, onChange }: { items: Pair[]; onChange: (items: Pair[]) => void }) {
  const { t } = useTranslation();
  return (
    <Rows
      items={items}
      onChange={onChange}
      create={() => ({ key: '', value: '' })}
      render={(item, update) => (
        <Flex gap={4}>
          <Input
            value={item.key}
            placeholder={t('workflowEditor.fields.key')}
            onChange={(event) => update({ ...item, key: event.target.value })}
          />
          <Input
            value={item.value}
            placeholder={t('workflowEditor.fields.value')}
            onChange={(event) => update({ ...item, value: event.target.value })}
          />
        </Flex>
      )}
    />
  );
}

export function HttpPanel({ node, set }: PanelProps<'http'>) {
  const { t } = useTranslation();
  const data = node.data;
  const auth = data.auth;
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.url')}>
        <Flex gap={4}>
          <Select
            value={data.method}
            style={{ width: 100 }}
            options={(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const).map((method) => ({
              value: method,
              label: method,
            }))}
            onChange={(method) => set({ method }, 'method')}
          />
          <Input
            value={data.url}
            placeholder="https://"
            onChange={(event) => set({ url: event.target.value }, 'url')}
            data-testid="wf-field-url"
          />
        </Flex>
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.headers')}>
        <Pairs items={data.headers} onChange={(headers) => set({ headers }, 'headers')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.params')}>
        <Pairs items={data.params} onChange={(params) => set({ params }, 'params')} />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.body')}>
        <Select
          value={data.body.type}
          options={(['none', 'json', 'form-urlencoded', 'raw'] as const).map((type) => ({
            value: type,
            label: t(`workflowEditor.bodyTypes.${type}`),
          }))}
          onChange={(type) => set({ body: { ...data.body, type } }, 'body')}
        />
        {data.body.type === 'none' ? null : (
          <div style={{ marginTop: 6 }}>
            <TemplateField
              nodeId={node.id}
              mono
              value={data.body.data}
              onChange={(body) => set({ body: { ...data.body, data: body } }, 'body')}
            />
          </div>
        )}
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.auth')}>
        <Select
          value={auth.type}
          options={(['none', 'bearer', 'basic', 'header'] as const).map((type) => ({
            value: type,
            label: t(`workflowEditor.authTypes.${type}`),
          }))}
          onChange={(type) =>
            set(
              {
                auth:
                  type === 'bearer'
                    ? { type, token: '' }
                    : type === 'basic'
                      ? { type, username: '', password: '' }
                      : type === 'header'
                        ? { type, header: 'Authorization', value: '' }
                        : { type: 'none' },
              },
              'auth',
            )
          }
        />
        <Flex vertical gap={4} style={{ marginTop: 6 }}>
          {auth.type === 'bearer' ? (
            <Input.Password
              value={auth.token}
              placeholder={t('workflowEditor.fields.token')}
              onChange={(event) => set({ auth: { ...auth, token: event.target.value } }, 'auth')}
            />
          ) : null}
          {auth.type === 'basic' ? (
            <>
              <Input
                value={auth.username}
                placeholder={t('workflowEditor.fields.username')}
                onChange={(event) => set({ auth: { ...auth, username: event.target.value } }, 'auth')}
              />
              <Input.Password
                value={auth.password}
                placeholder={t('workflowEditor.fields.password')}
                onChange={(event) => set({ auth: { ...auth, password: event.target.value } }, 'auth')}
              />
            </>
          ) : null}
          {auth.type === 'header' ? (
            <>
              <Input
                value={auth.header}
                placeholder={t('workflowEditor.fields.key')}
                onChange={(event) => set({ auth: { ...auth, header: event.target.value } }, 'auth')}
              />
              <Input.Password
                value={auth.value}
                placeholder={t('workflowEditor.fields.value')}
                onChange={(event) => set({ auth: { ...auth, value: event.target.value } }, 'auth')}
              />
            </>
          ) : null}
        </Flex>
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.httpTimeout')}>
        <InputNumber
          min={100}
          max={300_000}
          step={1000}
          value={data.timeout_ms}
          onChange={(value) => set({ timeout_ms: value ?? 30_000 }, 'timeout_ms')}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </>
  );
}

export function AgentPanel({ node, set, spaceId }: PanelProps<'agent'>) {
  const { t } = useTranslation();
  const agents = useAgentList(spaceId, '');
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.agent')}>
        <Select
          showSearch
          optionFilterProp="label"
          value={node.data.agent_id || undefined}
          loading={agents.isPending}
          placeholder={t('workflowEditor.fields.chooseAgent')}
          options={(agents.data?.items ?? []).map((agent) => ({ value: agent.id, label: agent.name }))}
          onChange={(agent_id: string) => set({ agent_id }, 'agent_id')}
          data-testid="wf-field-agent"
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.agentQuery')}>
        <TemplateField nodeId={node.id} value={node.data.query} onChange={(query) => set({ query }, 'query')} />
      </Form.Item>
    </>
  );
}

export function SubWorkflowPanel({ node, set, spaceId }: PanelProps<'sub_workflow'>) {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: queryKeys.workflows.picker(spaceId),
    queryFn: () => api(workflowRoutes.list, { page: 1, page_size: 100 }),
  });
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.subWorkflow')} extra={t('workflowEditor.fields.subWorkflowHelp')}>
        <Select
          showSearch
          optionFilterProp="label"
          value={node.data.workflow_id || undefined}
          loading={list.isPending}
          placeholder={t('workflowEditor.fields.chooseWorkflow')}
          options={(list.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }))}
          onChange={(workflow_id: string) => set({ workflow_id }, 'workflow_id')}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.fields.subWorkflowInputs')}>
        <BoundVariables nodeId={node.id} value={node.data.inputs} onChange={(inputs) => set({ inputs }, 'inputs')} />
      </Form.Item>
    </>
  );
}

export function UnsupportedPanel({ node }: PanelProps<'unsupported'>) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={t('workflowEditor.fields.unsupported', { type: node.data.original_type })}
      description={
        <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>
          {node.data.summary}
        </Typography.Paragraph>
      }
    />
  );
}
