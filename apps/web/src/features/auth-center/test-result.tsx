import { CheckCircleFilled, CloseCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import {
  type KeyTestResult,
  type ModelKey,
  type ModelPurpose,
  TEST_FAILURE_KINDS,
  type TestFailureKind,
} from '@athena/contract';
import { Alert, Flex, Tag, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { userTime } from '../../lib/user-time.ts';

export const MONO_FONT = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";

/** A stored kind the web does not know yet reads as "unexpected answer" rather than breaking. */
export const failureKindOf = (kind: string | null | undefined): TestFailureKind =>
  (TEST_FAILURE_KINDS as readonly string[]).includes(kind ?? '') ? (kind as TestFailureKind) : 'bad_response';

interface ResultProps {
  result: KeyTestResult;
  purpose: ModelPurpose;
  /** What was tested ("通义千问 · qwen-plus"), for results shown outside the form. */
  subject?: ReactNode;
  testId: string;
  onClose?: () => void;
}

/**
 * The outcome of a test in words a person can act on: the round trip when it worked; otherwise the
 * required "Test failed" headline, what the failure kind means and what to check, and the vendor's
 * own message.
 */
export function TestResultAlert({ result, purpose, subject, testId, onClose }: ResultProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const kind = result.ok ? null : failureKindOf(result.error_kind);
  const title = kind
    ? t('authCenter.test.failedTitle', { reason: t(`authCenter.failure.${kind}.title`) })
    : t('authCenter.test.okTitle', { ms: result.latency_ms ?? 0 });
  return (
    <Alert
      type={kind ? 'error' : 'success'}
      showIcon
      closable={onClose ? { onClose } : false}
      data-testid={testId}
      data-ok={String(result.ok)}
      data-kind={kind ?? ''}
      title={<span data-testid={`${testId}-title`}>{title}</span>}
      description={
        <Flex vertical gap={6}>
          {subject ? <Typography.Text strong>{subject}</Typography.Text> : null}
          <span data-testid={`${testId}-text`}>
            {kind ? t(`authCenter.failure.${kind}.text`) : t(`authCenter.test.okText.${purpose}`)}
          </span>
          {kind && result.detail ? (
            <div>
              <Typography.Text type="secondary">{t('authCenter.test.vendorSays')}</Typography.Text>
              <div
                data-testid={`${testId}-detail`}
                style={{
                  fontFamily: MONO_FONT,
                  fontSize: 12,
                  marginTop: 4,
                  padding: '6px 10px',
                  borderRadius: token.borderRadiusSM,
                  background: token.colorFillTertiary,
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-word',
                }}
              >
                {result.detail}
              </div>
            </div>
          ) : null}
        </Flex>
      }
    />
  );
}

/** The table's "last test" cell: OK with the round trip, the failure kind, or never tested. */
export function LastTestCell({ test }: { test: ModelKey['last_test'] }) {
  const { t } = useTranslation();
  if (!test) {
    return (
      <Typography.Text type="secondary" data-testid="key-last-test" data-status="never">
        <MinusCircleOutlined /> {t('authCenter.lastTest.never')}
      </Typography.Text>
    );
  }
  const kind = test.ok ? null : failureKindOf(test.error_kind);
  const when = userTime(test.at);
  return (
    <Tooltip
      title={t('authCenter.lastTest.at', { time: when.format('YYYY-MM-DD HH:mm:ss'), ago: dayjs(test.at).fromNow() })}
    >
      <Tag
        color={kind ? 'error' : 'success'}
        icon={kind ? <CloseCircleFilled /> : <CheckCircleFilled />}
        data-testid="key-last-test"
        data-status={kind ? 'failed' : 'ok'}
        data-kind={kind ?? ''}
        style={{ marginInlineEnd: 0 }}
      >
        {kind ? t(`authCenter.failure.${kind}.title`) : t('authCenter.lastTest.ok', { ms: test.latency_ms ?? 0 })}
      </Tag>
    </Tooltip>
  );
}
