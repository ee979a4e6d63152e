import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  MCP_EXTERNAL_LIMITS,
  MCP_EXTERNAL_TRANSPORTS,
  type McpExternalServer,
  type McpExternalTransport,
  mcpExternalRoutes,
} from '@athena/contract';
import { Alert, Button, Flex, Form, Input, Modal, Radio, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { type HeaderRow, headerRowsOf, headersToSend } from './external-logic.ts';

interface Values {
  name: string;
  url: string;
  transport: McpExternalTransport;
  enabled: boolean;
  headers: HeaderRow[];
}

interface Props {
  /** null: adding a new server. */
  server: McpExternalServer | null;
  open: boolean;
  onClose: () => void;
  onSaved: (server: McpExternalServer) => void;
}

/** Add or edit a server: name, URL, transport, headers as name/value rows (saved values never shown). */
export function ExternalServerForm({ server, open, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const add = useApiMutation(mcpExternalRoutes.add, { meta: { errorNotice: false } });
  const update = useApiMutation(mcpExternalRoutes.update, { meta: { errorNotice: false } });
  const editing = server !== null;

  const submit = async (values: Values) => {
    setError(null);
    // `stored` has no field of its own, so onFinish's values leave it out: read the whole store.
    const rows = (form.getFieldsValue(true) as Values).headers ?? [];
    const headers = headersToSend(rows, editing);
    const body = {
      name: values.name.trim(),
      url: values.url.trim(),
      transport: values.transport,
      enabled: values.enabled,
    };
    try {
      const saved = server
        ? await update.mutateAsync({ ...body, id: server.id, headers })
        : await add.mutateAsync({
            ...body,
            headers: headers.map((header) => ({ name: header.name, value: header.value ?? '' })),
          });
      onSaved(saved);
    } catch (caught) {
      setError(errorNotice(caught));
    }
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'mcp.external.editTitle' : 'mcp.external.addTitle')}
      okText={t('mcp.save')}
      cancelText={t('mcp.cancel')}
      confirmLoading={add.isPending || update.isPending}
      okButtonProps={{ 'data-testid': 'mcp-external-save' }}
      onOk={() => form.submit()}
      onCancel={() => {
        setError(null);
        onClose();
      }}
      width={640}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={{
          name: server?.name ?? '',
          url: server?.url ?? '',
          transport: server?.transport ?? 'streamable_http',
          enabled: server?.enabled ?? true,
          headers: headerRowsOf(server),
        }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="name"
          label={t('mcp.external.name')}
          rules={[{ required: true, whitespace: true, message: t('mcp.external.nameRequired') }]}
        >
          <Input
            autoFocus
            maxLength={50}
            placeholder={t('mcp.external.namePlaceholder')}
            data-testid="mcp-external-name"
          />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('mcp.external.url')}
          extra={t('mcp.external.urlHint')}
          rules={[{ required: true, whitespace: true, message: t('mcp.external.urlRequired') }]}
        >
          <Input
            maxLength={MCP_EXTERNAL_LIMITS.urlChars}
            placeholder="https://example.com/mcp"
            data-testid="mcp-external-url"
          />
        </Form.Item>
        <Form.Item name="transport" label={t('mcp.external.transport')} extra={t('mcp.external.transportHint')}>
          <Radio.Group
            data-testid="mcp-external-transport"
            options={MCP_EXTERNAL_TRANSPORTS.map((value) => ({ value, label: t(`mcp.external.transports.${value}`) }))}
          />
        </Form.Item>
        <Typography.Text strong>{t('mcp.external.headers')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t(editing ? 'mcp.external.headersEditHint' : 'mcp.external.headersHint')}
        </Typography.Paragraph>
        <Form.List name="headers">
          {(fields, { add: addRow, remove }) => (
            <Flex vertical gap={0} data-testid="mcp-external-headers">
              {fields.map((field, index) => {
                const stored = form.getFieldValue(['headers', field.name, 'stored']) === true;
                return (
                  <Flex key={field.key} gap={8} align="flex-start">
                    <Form.Item name={[field.name, 'name']} style={{ flex: 2 }}>
                      <Input
                        placeholder="Authorization"
                        maxLength={100}
                        data-testid={`mcp-external-header-name-${index}`}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'value']} style={{ flex: 3 }}>
                      <Input.Password
                        placeholder={stored ? t('mcp.external.headerKept') : t('mcp.external.headerValue')}
                        maxLength={MCP_EXTERNAL_LIMITS.headerValueChars}
                        autoComplete="new-password"
                        data-testid={`mcp-external-header-value-${index}`}
                      />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={t('mcp.external.headerRemove')}
                      onClick={() => remove(field.name)}
                    />
                  </Flex>
                );
              })}
              {fields.length < MCP_EXTERNAL_LIMITS.headersPerServer ? (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => addRow({ name: '', value: '', stored: false })}
                  style={{ width: 'fit-content', marginBottom: 16 }}
                  data-testid="mcp-external-header-add"
                >
                  {t('mcp.external.headerAdd')}
                </Button>
              ) : null}
            </Flex>
          )}
        </Form.List>
        <Form.Item name="enabled" label={t('mcp.external.enabled')} valuePropName="checked">
          <Switch data-testid="mcp-external-enabled" />
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon title={error} data-testid="mcp-external-form-error" /> : null}
    </Modal>
  );
}
