import { Collapse, Flex, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../agents/copy-button.tsx';
import { schemaFields } from './mcp-logic.ts';

/** A tool's input: its fields in one line each, and the JSON Schema itself folded away. */
export function SchemaView({ schema, testId }: { schema: Record<string, unknown>; testId?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const fields = schemaFields(schema);
  const text = JSON.stringify(schema, null, 2);
  return (
    <Flex vertical gap={8} data-testid={testId}>
      <Typography.Text strong>{t('mcp.schema.title')}</Typography.Text>
      {fields.length === 0 ? (
        <Typography.Text type="secondary">{t('mcp.schema.none')}</Typography.Text>
      ) : (
        <Flex vertical gap={4}>
          {fields.map((field) => (
            <Flex key={field.name} gap={6} align="baseline" wrap>
              <Typography.Text code>{field.name}</Typography.Text>
              <Tag bordered={false}>{field.type}</Tag>
              {field.required ? <Tag color="orange">{t('mcp.schema.required')}</Tag> : null}
              {field.description ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {field.description}
                </Typography.Text>
              ) : null}
            </Flex>
          ))}
        </Flex>
      )}
      <Collapse
        size="small"
        items={[
          {
            key: 'json',
            label: t('mcp.schema.json'),
            extra: <CopyButton text={text} size="small" type="text" />,
            children: (
              <pre
                data-testid={testId ? `${testId}-json` : undefined}
                style={{
                  margin: 0,
                  maxHeight: 320,
                  overflow: 'auto',
                  fontSize: 12,
                  background: token.colorFillQuaternary,
                  padding: 8,
                  borderRadius: 6,
                }}
              >
                {text}
              </pre>
            ),
          },
        ]}
      />
    </Flex>
  );
}
