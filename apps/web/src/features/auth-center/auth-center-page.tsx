import { PlusOutlined } from '@ant-design/icons';
import {
  can,
  type KeyTestResult,
  MODEL_PURPOSES,
  type ModelKey,
  type ModelPurpose,
  modelKeyRoutes,
} from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Segmented, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { KeyFormModal } from './key-form-modal.tsx';
import { refreshModelKeys, useModelKeys } from './key-queries.ts';
import { KeysEmpty } from './keys-empty.tsx';
import { KeysIntro } from './keys-intro.tsx';
import { KeysTable } from './keys-table.tsx';
import type { ProviderPreset } from './presets.ts';
import { TestResultAlert } from './test-result.tsx';

type Filter = 'all' | ModelPurpose;

interface FormState {
  /** Bumped on every opening, so each opening starts from a fresh form. */
  session: number;
  open: boolean;
  editing: ModelKey | null;
  preset?: ProviderPreset;
}

/**
 * /auth-center: the space's own model keys. Creator and admins add, edit, test, make default and
 * delete them; members see the list read-only. The purpose filter is kept in the URL (?purpose=).
 */
export function AuthCenterPage() {
  const { t } = useTranslation();
  const team = useUserStore((s) => s.team);
  const keys = useModelKeys(team?.id ?? null);
  const [searchParams, setSearchParams] = useSearchParams();
  const [form, setForm] = useState<FormState>({ session: 0, open: false, editing: null });
  const [testingIds, setTestingIds] = useState<ReadonlySet<string>>(new Set());
  const testKey = useApiMutation(modelKeyRoutes.test);
  const [rowResult, setRowResult] = useState<{ item: ModelKey; result: KeyTestResult } | null>(null);

  const heading = <PageHeader title={t('routes.authCenter')} subtitle={t('pageIntro.authCenter')} />;

  if (!team) {
    return (
      <Flex vertical gap={16} data-testid="page-authCenter">
        {heading}
        <Card>
          <Empty data-testid="keys-no-space" description={t('authCenter.noSpace')} />
        </Card>
      </Flex>
    );
  }

  const spaceId = team.id;
  const mayManage = can(team.role, 'model_key.manage');
  const items = keys.data?.items ?? [];
  const requested = searchParams.get('purpose');
  const filter: Filter = (MODEL_PURPOSES as readonly string[]).includes(requested ?? '')
    ? (requested as ModelPurpose)
    : 'all';
  const shown = filter === 'all' ? items : items.filter((item) => item.purpose === filter);
  const count = (purpose: Filter) =>
    purpose === 'all' ? items.length : items.filter((item) => item.purpose === purpose).length;

  const openForm = (editing: ModelKey | null, preset?: ProviderPreset) =>
    setForm((state) => ({ session: state.session + 1, open: true, editing, preset }));

  const testRow = async (item: ModelKey) => {
    setTestingIds((ids) => new Set(ids).add(item.id));
    try {
      const result = await testKey.mutateAsync({ id: item.id });
      setRowResult({ item, result });
      await refreshModelKeys(spaceId);
    } catch {
      // The failure's notice is already showing.
    } finally {
      setTestingIds((ids) => {
        const next = new Set(ids);
        next.delete(item.id);
        return next;
      });
    }
  };

  const noKeys = keys.isSuccess && items.length === 0;
  // Shown with the key's current name; a result for a key deleted since says nothing any more.
  const resultItem = rowResult ? items.find((item) => item.id === rowResult.item.id) : undefined;
  const shownResult = rowResult && resultItem ? { item: resultItem, result: rowResult.result } : null;

  return (
    <Flex vertical gap={16} data-testid="page-authCenter">
      {heading}
      <KeysIntro />
      {mayManage ? null : (
        <Alert type="info" showIcon data-testid="keys-readonly-note" title={t('authCenter.readonly')} />
      )}
      <Card>
        <Flex vertical gap={16}>
          {noKeys ? null : (
            <Flex wrap justify="space-between" align="center" gap={12}>
              <Segmented<Filter>
                data-testid="keys-purpose-filter"
                value={filter}
                onChange={(value) => setSearchParams(value === 'all' ? {} : { purpose: value }, { replace: true })}
                options={(['all', ...MODEL_PURPOSES] as const).map((value) => ({
                  value,
                  label: (
                    <span data-testid={`keys-filter-${value}`}>
                      {value === 'all' ? t('authCenter.filterAll') : t(`authCenter.purpose.${value}`)}
                      {keys.data ? ` · ${count(value)}` : ''}
                    </span>
                  ),
                }))}
              />
              {mayManage ? (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)} data-testid="keys-add">
                  {t('authCenter.add')}
                </Button>
              ) : null}
            </Flex>
          )}
          {shownResult ? (
            <TestResultAlert
              result={shownResult.result}
              purpose={shownResult.item.purpose}
              subject={t('authCenter.test.subject', {
                name: shownResult.item.model_name,
                version: shownResult.item.version,
              })}
              testId="key-test-result"
              onClose={() => setRowResult(null)}
            />
          ) : null}
          {keys.isError ? (
            <Alert
              type="error"
              showIcon
              data-testid="keys-error"
              title={t('authCenter.loadFailed')}
              description={errorText(keys.error, currentLocale())}
              action={
                <Button size="small" onClick={() => void keys.refetch()}>
                  {t('common.retry')}
                </Button>
              }
            />
          ) : null}
          {keys.isPending ? (
            <Skeleton active data-testid="keys-loading" />
          ) : noKeys ? (
            <KeysEmpty
              onAdd={mayManage ? (preset) => openForm(null, preset) : null}
              privateAddressesAllowed={keys.data?.private_addresses_allowed ?? false}
            />
          ) : keys.isError && items.length === 0 ? null : (
            <KeysTable
              items={shown}
              spaceId={spaceId}
              manage={
                mayManage
                  ? { testingIds, onTest: (item) => void testRow(item), onEdit: (item) => openForm(item) }
                  : null
              }
              emptyText={
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  data-testid="keys-empty-purpose"
                  description={t('authCenter.emptyPurpose', {
                    purpose: filter === 'all' ? '' : t(`authCenter.purpose.${filter}`),
                  })}
                />
              }
            />
          )}
        </Flex>
      </Card>
      {mayManage ? (
        <KeyFormModal
          key={form.session}
          open={form.open}
          editing={form.editing}
          initialPreset={form.preset}
          spaceId={spaceId}
          onClose={() => setForm((state) => ({ ...state, open: false }))}
        />
      ) : null}
    </Flex>
  );
}
