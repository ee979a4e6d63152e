import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  LockOutlined,
  MinusCircleOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { RunResult, WorkflowSummary } from '@athena/contract';
import { Tag, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RESULT_LOOK } from './run-result.ts';

const TAG_STYLE = { marginInlineEnd: 0, width: 'fit-content' } as const;

/** Locked / Unlocked (requirements.md, States), with who locked it and when. */
export function LockTag({ workflow }: { workflow: Pick<WorkflowSummary, 'locked' | 'locked_by' | 'locked_at'> }) {
  const { t } = useTranslation();
  const help = workflow.locked
    ? t('workflows.state.lockedHelp', {
        name: workflow.locked_by?.nickname ?? '–',
        time: workflow.locked_at ? dayjs(workflow.locked_at).fromNow() : '',
      })
    : t('workflows.state.unlockedHelp');
  return (
    <Tooltip title={help}>
      <Tag
        bordered={false}
        color={workflow.locked ? 'orange' : 'default'}
        icon={workflow.locked ? <LockOutlined /> : <UnlockOutlined />}
        style={TAG_STYLE}
        data-testid="workflow-lock-tag"
        data-locked={workflow.locked}
      >
        {workflow.locked ? t('workflows.state.locked') : t('workflows.state.unlocked')}
      </Tag>
    </Tooltip>
  );
}

/** Effective / Not effective (requirements.md, States), with the version that runs. */
export function EffectiveTag({ workflow }: { workflow: Pick<WorkflowSummary, 'effective' | 'published_version'> }) {
  const { t } = useTranslation();
  const effective = workflow.effective && workflow.published_version !== null;
  const help = effective
    ? t('workflows.state.effectiveHelp', { version: workflow.published_version })
    : workflow.published_version === null
      ? t('workflows.state.neverPublished')
      : t('workflows.state.notEffectiveHelp');
  return (
    <Tooltip title={help}>
      <Tag
        bordered={false}
        color={effective ? 'green' : 'default'}
        icon={effective ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
        style={TAG_STYLE}
        data-testid="workflow-effective-tag"
        data-effective={effective}
      >
        {effective ? t('workflows.state.effective') : t('workflows.state.notEffective')}
      </Tag>
    </Tooltip>
  );
}

const RESULT_ICONS = {
  ok: <CheckCircleOutlined />,
  fail: <CloseCircleOutlined />,
  empty: <MinusCircleOutlined />,
  warn: <ExclamationCircleOutlined />,
};

/** One of the four run results (requirements.md, Entities), explained on hover; null: never ran. */
export function RunResultTag({ result, testId = 'run-result-tag' }: { result: RunResult | null; testId?: string }) {
  const { t } = useTranslation();
  if (result === null) {
    return (
      <Tooltip title={t('workflows.resultHelp.never')}>
        <Tag bordered={false} style={TAG_STYLE} data-testid={testId} data-result="never">
          {t('workflows.result.never')}
        </Tag>
      </Tooltip>
    );
  }
  const look = RESULT_LOOK[result];
  return (
    <Tooltip title={t(`workflows.resultHelp.${result}`)}>
      <Tag
        bordered={false}
        color={look.color}
        icon={RESULT_ICONS[look.icon]}
        style={TAG_STYLE}
        data-testid={testId}
        data-result={result}
      >
        {t(`workflows.result.${result}`)}
      </Tag>
    </Tooltip>
  );
}
