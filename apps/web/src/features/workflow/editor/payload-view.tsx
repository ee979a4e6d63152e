import type { RunError } from '@athena/contract';
import { Alert, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'object' && Object.keys(value).length === 0);

/** A node's or run's inputs or outputs as readable JSON; a long one scrolls inside its box. */
export function PayloadView({ label, value, testId }: { label: string; value: unknown; testId?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      {isEmpty(value) ? (
        <Typography.Text type="secondary">{t('workflowEditor.run.none')}</Typography.Text>
      ) : (
        <pre
          style={{
            margin: 0,
            padding: 8,
            maxHeight: 220,
            overflow: 'auto',
            background: token.colorFillQuaternary,
            borderRadius: 6,
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
          }}
        >
          {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
        </pre>
      )}
    </Flex>
  );
}

/** The catalogue's message in the reader's language (the server localised it), the detail under it. */
export function RunErrorView({ error, title, testId }: { error: RunError; title?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid={testId}
      data-code={error.code}
      title={title ? `${title}: ${error.msg}` : error.msg}
      description={
        // Some messages already carry the detail; it is not repeated then.
        error.detail && !error.msg.includes(error.detail) ? (
          <Typography.Text style={{ fontSize: 12, whiteSpace: 'pre-wrap' }}>
            {t('workflowEditor.run.errorDetail', { detail: error.detail })}
          </Typography.Text>
        ) : undefined
      }
    />
  );
}
