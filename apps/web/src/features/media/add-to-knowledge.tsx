import { DatabaseOutlined } from '@ant-design/icons';
import { can, KNOWLEDGE_MAX_FILE_BYTES, type KnowledgeBase, knowledgeRoutes, type MediaItem } from '@athena/contract';
import { Alert, Button, Flex, Modal, Popover, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { refreshKnowledge, useKnowledgeList } from '../knowledge/knowledge-queries.ts';

// What the knowledge parser reads (docs/knowledge.md): PDF, DOCX and XLSX by their magic bytes;
// text (TXT, CSV) has none, the media module takes it for text/plain by its bytes, and only the
// name tells TXT from CSV. The server checks the content either way.
const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);
const TEXT_NAME = /\.(txt|csv)$/i;

/** Whether a knowledge base could take this item: a document it parses, not in the trash. */
export function knowledgeMayRead(item: Pick<MediaItem, 'kind' | 'mime_type' | 'name' | 'deleted_at'>): boolean {
  if (item.deleted_at) return false;
  if (item.kind !== 'document') return false;
  return DOCUMENT_TYPES.has(item.mime_type) || (item.mime_type === 'text/plain' && TEXT_NAME.test(item.name));
}

/**
 * "Add to knowledge base" on a media document's page: the button, and the dialog that picks one of
 * the team's bases and adds the file there (`knowledge/unit/from_media`). Nothing for other items.
 */
export function AddToKnowledge({ item, spaceId }: { item: MediaItem; spaceId: string }) {
  const { t } = useTranslation();
  const go = useGo();
  const [open, setOpen] = useState(false);
  const eligible = knowledgeMayRead(item);
  const bases = useKnowledgeList(eligible ? spaceId : null, '', '');
  if (!eligible) return null;

  const none = bases.isSuccess && bases.data.items.length === 0;
  const tooLarge = item.size > KNOWLEDGE_MAX_FILE_BYTES;
  const button = (
    <Button
      icon={<DatabaseOutlined />}
      disabled={none || tooLarge || !bases.isSuccess}
      onClick={() => setOpen(true)}
      style={none || tooLarge ? { pointerEvents: 'none' } : undefined}
      data-testid="media-to-knowledge"
    >
      {t('media.toKnowledge.button')}
    </Button>
  );
  const reason = tooLarge ? (
    t('media.toKnowledge.tooLarge')
  ) : none ? (
    <span data-testid="media-to-knowledge-none">
      {t('media.toKnowledge.noBases')}{' '}
      <Typography.Link onClick={() => go('knowledge')}>{t('media.toKnowledge.createBase')}</Typography.Link>
    </span>
  ) : null;

  return (
    <>
      {reason ? (
        <Popover content={reason}>
          {/* A disabled button takes no pointer events; the wrapper still opens the explanation. */}
          <span style={{ display: 'inline-block', cursor: 'not-allowed' }} data-testid="media-to-knowledge-why">
            {button}
          </span>
        </Popover>
      ) : (
        button
      )}
      {open ? (
        <AddToKnowledgeModal
          item={item}
          spaceId={spaceId}
          bases={bases.data?.items ?? []}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function AddToKnowledgeModal({
  item,
  spaceId,
  bases,
  onClose,
}: {
  item: MediaItem;
  spaceId: string;
  bases: KnowledgeBase[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const go = useGo();
  const team = useUserStore((s) => s.team);
  const userId = useUserStore((s) => s.userinfo?.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<KnowledgeBase | null>(null);

  // The server decides; this only spares a member a refusal they can foresee.
  const mayAdd = (base: KnowledgeBase) =>
    team ? can(team.role, 'knowledge.edit', { isOwner: base.created_by.id === userId }) : false;
  const options = bases.map((base) => {
    const allowed = mayAdd(base);
    return {
      value: base.id,
      name: base.name,
      disabled: !allowed,
      label: (
        <span data-testid={`media-to-knowledge-option-${base.id}`}>
          {base.name}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {allowed ? t('media.toKnowledge.files', { count: base.unit_count }) : t('media.toKnowledge.noRights')}
          </Typography.Text>
        </span>
      ),
    };
  });

  const submit = async () => {
    const base = bases.find((one) => one.id === chosen);
    if (!base) return;
    setSaving(true);
    setError(null);
    try {
      await api(knowledgeRoutes.unitFromMedia, { knowledge_id: base.id, media_item_id: item.id });
      setAdded(base);
      void refreshKnowledge(spaceId);
    } catch (caught) {
      setError(errorNotice(caught, currentLocale()));
    } finally {
      setSaving(false);
    }
  };

  const openBase = (base: KnowledgeBase) => {
    onClose();
    go('knowledgeDetail', { params: { knowledgeId: base.id } });
  };

  return (
    <Modal
      open
      title={t('media.toKnowledge.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        added
          ? [
              <Button key="close" onClick={onClose} data-testid="media-to-knowledge-close">
                {t('media.toKnowledge.close')}
              </Button>,
              <Button key="open" type="primary" onClick={() => openBase(added)} data-testid="media-to-knowledge-open">
                {t('media.toKnowledge.open')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                {t('media.cancel')}
              </Button>,
              <Button
                key="add"
                type="primary"
                disabled={!chosen}
                loading={saving}
                onClick={() => void submit()}
                data-testid="media-to-knowledge-submit"
              >
                {t('media.toKnowledge.add')}
              </Button>,
            ]
      }
    >
      <Flex vertical gap={12} data-testid="media-to-knowledge-dialog">
        {added ? (
          <Alert
            type="success"
            showIcon
            title={t('media.toKnowledge.added', { base: added.name })}
            data-testid="media-to-knowledge-added"
          />
        ) : (
          <>
            <Typography.Paragraph style={{ margin: 0 }}>
              {t('media.toKnowledge.intro', { name: item.name })}
            </Typography.Paragraph>
            <Select
              value={chosen ?? undefined}
              onChange={(value: string) => {
                setChosen(value);
                setError(null);
              }}
              options={options}
              showSearch={{ optionFilterProp: 'name' }}
              placeholder={t('media.toKnowledge.placeholder')}
              aria-label={t('media.toKnowledge.base')}
              data-testid="media-to-knowledge-select"
            />
            {error ? (
              <Alert
                type="error"
                showIcon
                title={t('media.toKnowledge.failedTitle')}
                description={error}
                data-testid="media-to-knowledge-error"
              />
            ) : null}
          </>
        )}
      </Flex>
    </Modal>
  );
}
