import {
  behaviourRoutes,
  SATISFACTION_DEFAULTS,
  SATISFACTION_LIMITS,
  type SatisfactionSettings,
} from '@athena/contract';
import { Alert, App, Checkbox, Flex, Form, Input, Modal, Rate, Skeleton, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshSatisfactionSettings, useSatisfactionSettings } from './behaviour-queries.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  spaceId: string | null;
  sceneId: number;
}

/** One row per score, best first: used or not, and its label. */
type Row = { score: number; used: boolean; label: string };

function rowsOf(settings: SatisfactionSettings): Row[] {
  const defaults = SATISFACTION_DEFAULTS[currentLocale()].labels;
  return [5, 4, 3, 2, 1].map((score) => {
    const option = settings.options.find((o) => o.score === score);
    return { score, used: option !== undefined, label: option?.label ?? defaults[5 - score] };
  });
}

/**
 * The scene's satisfaction question (creator and admins): on or off, the question's text and the
 * menu's options. WeCom sends it when a session ends; the customer's tap is the rating.
 */
export function SatisfactionSettingsModal({ open, onClose, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useSatisfactionSettings(spaceId, sceneId, open);
  const update = useApiMutation(behaviourRoutes.satisfactionSettingsUpdate);
  const [enabled, setEnabled] = useState(false);
  const [head, setHead] = useState('');
  const [rows, setRows] = useState<Row[]>([]);

  useEffect(() => {
    if (!open || !settings.data) return;
    setEnabled(settings.data.enabled);
    setHead(settings.data.head);
    setRows(rowsOf(settings.data));
  }, [open, settings.data]);

  const used = rows.filter((row) => row.used);
  const invalid =
    head.trim() === '' || used.length < 2 || used.some((row) => row.label.trim() === '' || row.label.length > 20);

  const save = async () => {
    try {
      await update.mutateAsync({
        enabled,
        head: head.trim(),
        options: used.map((row) => ({ score: row.score, label: row.label.trim() })),
      });
      void message.success(t('userProfile.satisfaction.settings.saved'));
      await refreshSatisfactionSettings(spaceId, sceneId);
      onClose();
    } catch {
      // The failure's notice is already showing.
    }
  };

  const setRow = (score: number, change: Partial<Row>) =>
    setRows((all) => all.map((row) => (row.score === score ? { ...row, ...change } : row)));

  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('userProfile.satisfaction.settings.save')}
      cancelText={t('userProfile.value.cancel')}
      okButtonProps={{ disabled: invalid || !settings.data, loading: update.isPending, id: 'satisfaction-save' }}
      title={t('userProfile.satisfaction.settings.title')}
      destroyOnHidden
      data-testid="satisfaction-settings"
    >
      {settings.isError ? (
        <Alert type="error" showIcon title={t('userProfile.satisfaction.settings.loadFailed')} />
      ) : !settings.data ? (
        <Skeleton active />
      ) : (
        <Form layout="vertical">
          <Typography.Paragraph type="secondary">{t('userProfile.satisfaction.settings.intro')}</Typography.Paragraph>
          <Form.Item label={t('userProfile.satisfaction.settings.enabled')}>
            <Switch checked={enabled} onChange={setEnabled} data-testid="satisfaction-enabled" />
          </Form.Item>
          <Form.Item label={t('userProfile.satisfaction.settings.head')} required>
            <Input
              value={head}
              maxLength={SATISFACTION_LIMITS.head}
              onChange={(event) => setHead(event.target.value)}
              data-testid="satisfaction-head"
            />
          </Form.Item>
          <Form.Item
            label={t('userProfile.satisfaction.settings.options')}
            extra={t('userProfile.satisfaction.settings.optionsHint')}
          >
            <Flex vertical gap={8}>
              {rows.map((row) => (
                <Flex key={row.score} gap={10} align="center" data-testid="satisfaction-option">
                  <Checkbox
                    checked={row.used}
                    onChange={(event) => setRow(row.score, { used: event.target.checked })}
                  />
                  <Rate disabled count={5} value={row.score} style={{ fontSize: 12, flex: 'none' }} />
                  <Input
                    value={row.label}
                    disabled={!row.used}
                    maxLength={SATISFACTION_LIMITS.label}
                    onChange={(event) => setRow(row.score, { label: event.target.value })}
                  />
                </Flex>
              ))}
            </Flex>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
