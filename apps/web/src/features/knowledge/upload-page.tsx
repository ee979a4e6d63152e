import { ArrowRightOutlined } from '@ant-design/icons';
import type { KnowledgeUnit } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Skeleton, Steps, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { useLeaveGuard } from '../../shared/hooks/use-leave-guard.ts';
import { BackTitle } from './back-title.tsx';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { refreshBase, useKnowledgeBase, useUnitPolling } from './knowledge-queries.ts';
import { baseGate } from './load-state.tsx';
import { SettingsStep } from './settings-step.tsx';
import { UploadFilesStep } from './upload-files-step.tsx';
import { useUploadQueue } from './use-upload-queue.ts';

/**
 * /knowledge/:knowledgeId/upload — 1 upload files, 2 choose chunking (and Q&A for sheets) with a
 * preview, 3 start indexing and watch on the base's page. With ?units=a,b it starts at step 2 for
 * files uploaded earlier that still wait for their settings.
 */
export function KnowledgeUploadPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { knowledgeId = '' } = useParams();
  const [params] = useSearchParams();
  const spaceId = useSpaceId();
  const base = useKnowledgeBase(spaceId, knowledgeId);
  const may = useKnowledgePermissions(base.data);
  const queue = useUploadQueue(knowledgeId);
  const [step, setStep] = useState(0);
  const [starting, setStarting] = useState(false);
  const requestedIds = useMemo(() => (params.get('units') ?? '').split(',').filter(Boolean), [params]);
  const resuming = requestedIds.length > 0;
  const existing = useUnitPolling(resuming ? spaceId : null, knowledgeId);
  useLeaveGuard(queue.busy, {
    title: t('knowledge.upload.leaveTitle'),
    text: t('knowledge.upload.leaveText'),
    ok: t('knowledge.upload.leaveOk'),
    stay: t('knowledge.upload.leaveStay'),
  });
  const toDetail = () => go('knowledgeDetail', { params: { knowledgeId } });

  const gate = baseGate(base, { ready: Boolean(spaceId), testId: 'upload', onBack: () => go('knowledge'), t });
  if (gate.view || !spaceId) return gate.view;
  const data = gate.data;

  const head = (
    <BackTitle
      title={t('routes.knowledgeUpload')}
      subtitle={data.name}
      backLabel={t('knowledge.backToBase')}
      onBack={toDetail}
    />
  );

  if (!may.edit) {
    return (
      <Flex vertical gap={16} data-testid="page-knowledgeUpload">
        {head}
        <Alert type="info" showIcon title={t('knowledge.upload.readonly')} data-testid="upload-readonly" />
      </Flex>
    );
  }

  let units: KnowledgeUnit[] = queue.units;
  if (resuming) {
    const wanted = new Set(requestedIds);
    units = (existing.data?.items ?? []).filter((unit) => wanted.has(unit.id) && unit.status === 'not_indexed');
  }
  const current = resuming ? Math.max(step, 1) : step;
  const started = () => {
    void refreshBase(spaceId, knowledgeId);
    toDetail();
  };

  let body: React.ReactNode;
  if (resuming && existing.isPending) {
    body = <Skeleton active paragraph={{ rows: 4 }} />;
  } else if (resuming && units.length === 0) {
    body = (
      <Empty description={t('knowledge.upload.nothingToStart')} data-testid="upload-nothing-to-start">
        <Button type="primary" onClick={toDetail}>
          {t('knowledge.backToBase')}
        </Button>
      </Empty>
    );
  } else if (current === 0) {
    const left = queue.entries.length - units.length;
    body = (
      <Flex vertical gap={16}>
        <UploadFilesStep queue={queue} />
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text type="secondary" data-testid="upload-summary">
            {queue.busy
              ? t('knowledge.upload.waitUploads')
              : units.length > 0 && left > 0
                ? t('knowledge.upload.leftOut', { count: left })
                : t('knowledge.upload.uploadedCount', { count: units.length })}
          </Typography.Text>
          <Button
            type="primary"
            icon={<ArrowRightOutlined />}
            iconPlacement="end"
            disabled={queue.busy || units.length === 0}
            onClick={() => setStep(1)}
            data-testid="upload-next"
          >
            {t('knowledge.upload.next')}
          </Button>
        </Flex>
      </Flex>
    );
  } else {
    body = (
      <SettingsStep
        units={units}
        onBack={resuming ? null : () => setStep(0)}
        onStarting={setStarting}
        onStarted={started}
      />
    );
  }

  return (
    <Flex vertical gap={16} data-testid="page-knowledgeUpload" data-step={current}>
      {head}
      <Card>
        <Steps
          current={starting ? 2 : current}
          style={{ marginBottom: 24 }}
          data-testid="upload-steps"
          items={[
            { title: t('knowledge.upload.steps.files'), content: t('knowledge.upload.steps.filesHelp') },
            { title: t('knowledge.upload.steps.settings'), content: t('knowledge.upload.steps.settingsHelp') },
            { title: t('knowledge.upload.steps.index'), content: t('knowledge.upload.steps.indexHelp') },
          ]}
        />
        {body}
      </Card>
    </Flex>
  );
}
