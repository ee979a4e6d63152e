import {
  MCP_LIMITS,
  MCP_TOOL_KINDS,
  type McpCandidate,
  type McpTool,
  type McpToolKind,
  mcpRoutes,
} from '@athena/contract';
import { Alert, Empty, Form, Input, Modal, Segmented, Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { toolNameProblem } from './mcp-logic.ts';
import { useMcpCandidates } from './mcp-queries.ts';
import { SchemaView } from './schema-view.tsx';

/** Codes the server answers about the name, shown under the name field. */
const NAME_CODES = new Set([41002, 41003]);

interface Values {
  kind: McpToolKind;
  target_id?: string;
  name: string;
  description: string;
}

interface Props {
  spaceId: string | null;
  /** Open to add (null) or to edit a tool; undefined: closed. */
  editing: McpTool | null | undefined;
  onClose: () => void;
  onSaved: (tool: McpTool) => void;
}

/** Expose a knowledge base, effective workflow or agent as a tool, or change a tool's name and description. */
export function ToolFormModal({ spaceId, editing, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const open = editing !== undefined;
  const adding = editing === null;
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? 'knowledge';
  const targetId = Form.useWatch('target_id', form);
  const [error, setError] = useState<string | null>(null);
  const candidates = useMcpCandidates(spaceId, open && adding);
  const add = useApiMutation(mcpRoutes.toolAdd, { meta: { errorNotice: false } });
  const update = useApiMutation(mcpRoutes.toolUpdate, { meta: { errorNotice: false } });
  const ofKind = (candidates.data?.items ?? []).filter((c) => c.kind === kind);
  const chosen: McpCandidate | undefined = ofKind.find((c) => c.target_id === targetId);

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.setFieldsValue(
      editing
        ? { kind: editing.kind, target_id: editing.target_id, name: editing.name, description: editing.description }
        : { kind: 'knowledge', target_id: undefined, name: '', description: '' },
    );
  }, [open, editing, form]);

  const pickTarget = (id: string) => {
    const candidate = ofKind.find((c) => c.target_id === id);
    if (candidate) form.setFieldsValue({ name: candidate.suggested_name });
    void form.validateFields(['name']).catch(() => {});
  };

  const submit = async (values: Values) => {
    setError(null);
    const name = values.name.trim();
    const description = (values.description ?? '').trim();
    try {
      const tool = editing
        ? await update.mutateAsync({ id: editing.id, name, description })
        : await add.mutateAsync({
            kind: values.kind,
            target_id: values.target_id ?? '',
            name,
            ...(description ? { description } : {}),
          });
      onSaved(tool);
    } catch (caught) {
      const text = errorNotice(caught);
      if (caught instanceof ApiError && NAME_CODES.has(Number(caught.code)) && text) {
        form.setFields([{ name: 'name', errors: [text] }]);
      } else setError(text);
    }
  };

  const nameRule = {
    validator: (_: unknown, value: string | undefined) => {
      const problem = toolNameProblem(value ?? '');
      return problem ? Promise.reject(new Error(t(`mcp.tools.name_${problem}`))) : Promise.resolve();
    },
  };

  return (
    <Modal
      open={open}
      width={640}
      title={adding ? t('mcp.tools.add') : t('mcp.tools.edit')}
      okText={adding ? t('mcp.tools.addOk') : t('mcp.save')}
      cancelText={t('mcp.cancel')}
      confirmLoading={add.isPending || update.isPending}
      okButtonProps={{ 'data-testid': 'mcp-tool-save', disabled: adding && !targetId }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={(values) => void submit(values)}>
        {adding ? (
          <>
            <Form.Item name="kind" label={t('mcp.tools.kind')}>
              <Segmented
                data-testid="mcp-tool-kind"
                onChange={() => form.setFieldsValue({ target_id: undefined, name: '' })}
                options={MCP_TOOL_KINDS.map((value) => ({
                  value,
                  label: <span data-testid={`mcp-tool-kind-${value}`}>{t(`mcp.kinds.${value}`)}</span>,
                }))}
              />
            </Form.Item>
            <Form.Item
              name="target_id"
              label={t(`mcp.tools.target_${kind}`)}
              extra={kind === 'workflow' ? t('mcp.tools.workflowHint') : undefined}
              rules={[{ required: true, message: t('mcp.tools.targetRequired') }]}
            >
              <Select
                data-testid="mcp-tool-target"
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('mcp.tools.targetPlaceholder')}
                loading={candidates.isPending}
                onChange={pickTarget}
                notFoundContent={
                  candidates.isPending ? (
                    <Spin size="small" />
                  ) : candidates.isError ? (
                    errorNotice(candidates.error)
                  ) : (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`mcp.tools.noCandidates_${kind}`)} />
                  )
                }
                options={ofKind.map((c) => ({
                  value: c.target_id,
                  label: c.tool_id ? `${c.target_name} · ${t('mcp.tools.alreadyExposed')}` : c.target_name,
                  disabled: Boolean(c.tool_id),
                }))}
              />
            </Form.Item>
          </>
        ) : (
          <Typography.Paragraph type="secondary">
            {t('mcp.tools.editTarget', {
              kind: t(`mcp.kinds.${editing?.kind ?? 'knowledge'}`),
              name: editing?.target_name,
            })}
          </Typography.Paragraph>
        )}
        <Form.Item
          name="name"
          label={t('mcp.tools.name')}
          extra={t('mcp.tools.nameRule')}
          rules={[nameRule]}
          validateTrigger={['onChange', 'onBlur']}
        >
          <Input
            maxLength={64}
            data-testid="mcp-tool-name"
            style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
          />
        </Form.Item>
        <Form.Item name="description" label={t('mcp.tools.description')} extra={t('mcp.tools.descriptionHint')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={MCP_LIMITS.descriptionChars}
            showCount
            placeholder={adding ? t('mcp.tools.descriptionPlaceholder') : undefined}
            data-testid="mcp-tool-description"
          />
        </Form.Item>
        {adding && chosen ? <SchemaView schema={chosen.input_schema} /> : null}
      </Form>
      {error ? <Alert type="error" showIcon title={error} data-testid="mcp-tool-error" /> : null}
    </Modal>
  );
}
