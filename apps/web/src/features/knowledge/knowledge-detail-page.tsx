import {
  AimOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  FileTextOutlined,
  MoreOutlined,
  OrderedListOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Card, Dropdown, Flex, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { BackTitle, FactLine } from './back-title.tsx';
import { useBaseCommands } from './base-commands.ts';
import { HitTestPanel } from './hit-test-panel.tsx';
import { TypeTag } from './knowledge-card.tsx';
import { KnowledgeFormModal } from './knowledge-form-modal.tsx';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { useKnowledgeBase, useKnowledgeGroups } from './knowledge-queries.ts';
import { baseGate } from './load-state.tsx';
import { StatusSummary } from './unit-status-badge.tsx';
import { UnitsPanel } from './units-panel.tsx';

const TABS = ['files', 'hit-test'] as const;
type Tab = (typeof TABS)[number];

/** /knowledge/detail/:knowledgeId — a base's files with live status, and the hit test (?tab=hit-test). */
export function KnowledgeDetailPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { knowledgeId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const spaceId = useSpaceId();
  const base = useKnowledgeBase(spaceId, knowledgeId);
  const groups = useKnowledgeGroups(spaceId);
  const may = useKnowledgePermissions(base.data);
  const commands = useBaseCommands(spaceId);
  const [settings, setSettings] = useState({ session: 0, open: false });
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'files';
  const back = () => go('knowledge');

  const gate = baseGate(base, { ready: Boolean(spaceId), testId: 'knowledge-detail', onBack: back, t });
  if (gate.view || !spaceId) return gate.view;
  const data = gate.data;

  const groupName = groups.data?.items.find((group) => group.id === data.group_id)?.name;
  const facts = [
    ...(groupName ? [t('knowledge.detail.group', { name: groupName })] : []),
    t('knowledge.counts', { units: data.unit_count, segments: data.segment_count }),
    data.embedding_model_key_id
      ? t('knowledge.detail.embedding', { name: data.embedding_model_label ?? t('knowledge.form.embeddingMissing') })
      : t('knowledge.fullTextOnly'),
    t('knowledge.detail.retrieval', {
      mode: t(`knowledge.retrieval.modes.${data.retrieval.mode}`),
      topK: data.retrieval.top_k,
    }),
  ];

  return (
    <Flex vertical gap={16} data-testid="page-knowledgeDetail" data-knowledge-id={data.id}>
      <BackTitle
        title={data.name}
        tags={<TypeTag type={data.type} />}
        subtitle={
          <Flex vertical gap={2}>
            {data.description ? <span data-testid="knowledge-description">{data.description}</span> : null}
            <FactLine facts={facts} testId="knowledge-facts" />
            <StatusSummary counts={data.status_counts} testId="knowledge-detail-summary" />
          </Flex>
        }
        backLabel={t('knowledge.backToList')}
        onBack={back}
        extra={
          <>
            {may.edit ? (
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                onClick={() => go('knowledgeUpload', { params: { knowledgeId: data.id } })}
                data-testid="knowledge-upload"
              >
                {t('knowledge.detail.upload')}
              </Button>
            ) : null}
            <Button
              icon={<OrderedListOutlined />}
              onClick={() => go('knowledgeSegments', { params: { knowledgeId: data.id } })}
              data-testid="knowledge-all-segments"
            >
              {t('knowledge.detail.allSegments')}
            </Button>
            {may.edit ? (
              <Button
                icon={<SettingOutlined />}
                onClick={() => setSettings((s) => ({ session: s.session + 1, open: true }))}
                data-testid="knowledge-settings"
              >
                {t('knowledge.detail.settings')}
              </Button>
            ) : null}
            {may.edit ? (
              <Button
                icon={<ReloadOutlined />}
                disabled={data.unit_count === 0}
                onClick={() => commands.reindex(data)}
                data-testid="knowledge-reindex"
              >
                {t('knowledge.reindex.action')}
              </Button>
            ) : null}
            {may.delete ? (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    {
                      key: 'delete',
                      icon: <DeleteOutlined />,
                      danger: true,
                      label: <span data-testid="knowledge-delete">{t('knowledge.delete.action')}</span>,
                    },
                  ],
                  onClick: async () => {
                    if (await commands.remove(data)) go('knowledge', { replace: true });
                  },
                }}
              >
                <Button
                  icon={<MoreOutlined />}
                  loading={commands.busyId === data.id}
                  aria-label={t('knowledge.more')}
                  data-testid="knowledge-detail-menu"
                />
              </Dropdown>
            ) : null}
          </>
        }
      />
      {may.edit ? null : (
        <Tag bordered={false} style={{ width: 'fit-content' }} data-testid="knowledge-readonly">
          {t('knowledge.detail.readonly')}
        </Tag>
      )}
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams(key === 'files' ? {} : { tab: key }, { replace: true })}
          items={[
            {
              key: 'files',
              label: (
                <span data-testid="knowledge-tab-files">
                  <FileTextOutlined /> {t('knowledge.detail.files')}
                </span>
              ),
              children: <UnitsPanel base={data} spaceId={spaceId} canEdit={may.edit} />,
            },
            {
              key: 'hit-test',
              label: (
                <span data-testid="knowledge-tab-hit-test">
                  <AimOutlined /> {t('knowledge.hitTest.title')}
                </span>
              ),
              children: <HitTestPanel base={data} />,
            },
          ]}
        />
      </Card>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('knowledge.detail.createdBy', { name: data.created_by.nickname })}
      </Typography.Text>
      {may.edit ? (
        <KnowledgeFormModal
          key={settings.session}
          open={settings.open}
          spaceId={spaceId}
          base={data}
          onClose={() => setSettings((s) => ({ ...s, open: false }))}
        />
      ) : null}
    </Flex>
  );
}
