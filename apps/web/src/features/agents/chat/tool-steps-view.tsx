import { ApiOutlined, CheckCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { AgentToolStep } from '@athena/contract';
import { Collapse, Flex, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDuration, prettyArguments, type ShownStepStatus, shownStatus } from './tool-steps.ts';

function StatusMark({ status }: { status: ShownStepStatus }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (status === 'running') {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        <LoadingOutlined spin style={{ color: token.colorPrimary, marginInlineEnd: 4 }} />
        {t('agents.toolSteps.running')}
      </Typography.Text>
    );
  }
  if (status === 'ok') {
    return (
      <CheckCircleFilled
        style={{ color: token.colorSuccess }}
        aria-label={t('agents.toolSteps.ok')}
        title={t('agents.toolSteps.ok')}
      />
    );
  }
  return (
    <Tag
      color={status === 'error' ? 'error' : 'warning'}
      bordered={false}
      style={{ marginInlineEnd: 0, fontSize: 12, lineHeight: '18px' }}
    >
      {t(`agents.toolSteps.${status}`)}
    </Tag>
  );
}

const pre = {
  margin: 0,
  maxHeight: 240,
  overflow: 'auto',
  padding: '6px 8px',
  borderRadius: 6,
  fontSize: 12,
  lineHeight: 1.5,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
} as const;

function StepBody({ step, status }: { step: AgentToolStep; status: ShownStepStatus }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const args = prettyArguments(step.arguments);
  const box = { ...pre, background: token.colorFillTertiary, fontFamily: token.fontFamilyCode };
  return (
    <Flex vertical gap={6}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('agents.toolSteps.arguments')}
      </Typography.Text>
      <pre style={box} data-testid="chat-tool-step-arguments">
        {args || t('agents.toolSteps.noArguments')}
      </pre>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('agents.toolSteps.output')}
      </Typography.Text>
      <pre
        style={{ ...box, color: step.status === 'error' ? token.colorError : undefined }}
        data-testid="chat-tool-step-output"
      >
        {step.output ||
          (status === 'running'
            ? t('agents.toolSteps.waiting')
            : status === 'unfinished'
              ? t('agents.toolSteps.unfinishedHelp')
              : t('agents.toolSteps.noOutput'))}
      </pre>
    </Flex>
  );
}

/** The MCP tools an answer called, above its text: one compact collapsible row per call. */
export function ToolSteps({ steps, streaming }: { steps: AgentToolStep[]; streaming: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (steps.length === 0) return null;
  return (
    <Flex vertical gap={4} data-testid="chat-tool-steps" style={{ minWidth: 0, width: 520, maxWidth: '100%' }}>
      {steps.map((step) => {
        const status = shownStatus(step, streaming);
        const duration = status === 'ok' || status === 'error' ? formatDuration(step.duration_ms) : '';
        return (
          <div key={step.id} data-testid="chat-tool-step" data-status={status} data-tool={step.tool}>
            <Collapse
              size="small"
              destroyOnHidden
              style={{ background: token.colorBgContainer }}
              styles={{ header: { alignItems: 'center' }, body: { padding: '8px 12px' } }}
              items={[
                {
                  key: step.id,
                  label: (
                    <Flex align="center" gap={6} style={{ minWidth: 0, fontSize: 13 }}>
                      <ApiOutlined style={{ color: token.colorTextSecondary }} />
                      <Typography.Text
                        strong
                        ellipsis
                        style={{ fontFamily: token.fontFamilyCode, fontSize: 12, maxWidth: 220 }}
                      >
                        {step.tool}
                      </Typography.Text>
                      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 180 }}>
                        {t('agents.toolSteps.onServer', { server: step.server_name || step.server_id })}
                      </Typography.Text>
                    </Flex>
                  ),
                  extra: (
                    <Flex align="center" gap={8} style={{ whiteSpace: 'nowrap' }}>
                      {duration ? (
                        <Typography.Text
                          type="secondary"
                          style={{ fontSize: 12 }}
                          data-testid="chat-tool-step-duration"
                        >
                          {duration}
                        </Typography.Text>
                      ) : null}
                      <StatusMark status={status} />
                    </Flex>
                  ),
                  children: <StepBody step={step} status={status} />,
                },
              ]}
            />
          </div>
        );
      })}
    </Flex>
  );
}
