import { SettingOutlined, SmileOutlined } from '@ant-design/icons';
import type { ProfileCustomer, ProfileField } from '@athena/contract';
import { can } from '@athena/contract';
import { Alert, Button, Card, Empty, Flex, Result, Select, Tabs, theme } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { conversationsHref, PROFILE_CUSTOMER_PARAM, profileCustomerOf } from '../chat-history/customer-links.ts';
import { useEmbedded } from '../chat-history/route-link.tsx';
import { useChatScene } from '../chat-history/use-chat-scene.ts';
import { ActivationTab } from './activation-tab.tsx';
import { CustomerDrawer } from './customer-drawer.tsx';
import { CustomerFilters } from './customer-filters.tsx';
import { CustomerTable } from './customer-table.tsx';
import { FieldsDrawer } from './fields-drawer.tsx';
import { isFiltered, listFilters, NO_PROFILE_FILTERS, type ProfileFilters, totalOf } from './profile-filters.ts';
import { useCustomerCount, useCustomerList, useProfileFields } from './profile-queries.ts';
import { ReportTab } from './report-tab.tsx';
import { SatisfactionSettingsModal } from './satisfaction-settings-modal.tsx';

interface Props {
  /** The page's title, or null inside an embed. */
  title: ReactNode;
  /** What goes at the header's end (the embed's language switch). */
  extra?: ReactNode;
}

const NO_FIELDS: ProfileField[] = [];

/** How long typing must pause before the list is asked again. */
const TYPING_PAUSE_MS = 400;

/**
 * User profiles of a customer-service scene: the scene picker (chat history's) and the field
 * definitions on top; search, last-active time and field conditions above the customers; one
 * customer's profile and history in a drawer beside them.
 */
export function UserProfileView({ title, extra }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const spaceId = useSpaceId();
  const role = useUserStore((s) => s.team?.role);
  const canDefine = role !== undefined && can(role, 'profile.define');
  const canEdit = role !== undefined && can(role, 'profile.edit');
  const canActivate = role !== undefined && can(role, 'profile.activate');
  const scene = useChatScene();
  const sceneId = scene.sceneId;
  const fields = useProfileFields(spaceId, sceneId);
  const fieldItems = fields.data ?? NO_FIELDS;
  const [filters, setFilters] = useState<ProfileFilters>(NO_PROFILE_FILTERS);
  const [page, setPage] = useState(1);
  // The open customer lives in the address (`customer`), so chat history can link to a profile
  // and Back comes back to it; opening one replaces the entry, as chat history's conversations do.
  const [search, setSearch] = useSearchParams();
  const openId = profileCustomerOf(search);
  const setOpenId = (id: string | null) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (id) next.set(PROFILE_CUSTOMER_PARAM, id);
        else next.delete(PROFILE_CUSTOMER_PARAM);
        return next;
      },
      { replace: true },
    );
  const embedded = useEmbedded();
  const [opened, setOpened] = useState<ProfileCustomer | undefined>(undefined);
  const [fieldsOpen, setFieldsOpen] = useState(false);
  const [satisfactionOpen, setSatisfactionOpen] = useState(false);
  const typed = useMemo(() => listFilters(filters, fieldItems), [filters, fieldItems]);
  const body = useDebouncedValue(typed, TYPING_PAUSE_MS);
  const list = useCustomerList(spaceId, sceneId, body, page, fields.isSuccess);
  const filtered = isFiltered(body);
  const estimated = list.data?.total_estimated === true && !list.isPlaceholderData;
  const counted = useCustomerCount(spaceId, sceneId, body, estimated);
  const { total, totalKind } = totalOf(list.data, estimated, counted);

  const changeFilters = (patch: Partial<ProfileFilters>) => {
    setFilters((previous) => ({ ...previous, ...patch }));
    setPage(1);
  };
  const clearFilters = () => {
    setFilters(NO_PROFILE_FILTERS);
    setPage(1);
  };
  // setScene drops the open customer from the address too; a second address change in the same
  // event would start from the old address and bring the scene back.
  const changeScene = (next: number) => {
    scene.setScene(next);
    clearFilters();
  };

  const header = (
    <Flex align="center" gap={12} wrap style={{ marginBottom: 12 }}>
      {title}
      <Select
        value={sceneId ?? undefined}
        options={scene.options.map((option) => ({ value: option.type, label: option.label }))}
        onChange={changeScene}
        loading={scene.scenes.isPending}
        style={{ minWidth: 200 }}
        prefix={<span style={{ color: token.colorTextTertiary }}>{t('chatHistory.scene')}</span>}
        popupMatchSelectWidth={false}
        data-testid="profile-scene"
      />
      <Flex gap={8} align="center" style={{ marginInlineStart: 'auto' }}>
        {fields.isSuccess ? (
          <Button icon={<SettingOutlined />} onClick={() => setFieldsOpen(true)} data-testid="profile-fields-open">
            {t('userProfile.fields.button', { count: fieldItems.length })}
          </Button>
        ) : null}
        {canDefine && sceneId !== null ? (
          <Button icon={<SmileOutlined />} onClick={() => setSatisfactionOpen(true)} data-testid="satisfaction-open">
            {t('userProfile.satisfaction.settings.button')}
          </Button>
        ) : null}
        {extra}
      </Flex>
    </Flex>
  );

  const content = (): ReactNode => {
    if (scene.scenes.isError) {
      return (
        <ListLoadError
          title={t('chatHistory.sceneLoadFailed')}
          error={scene.scenes.error}
          onRetry={() => void scene.scenes.refetch()}
          testId="profile-scenes-error"
        />
      );
    }
    if (scene.scenes.isSuccess && sceneId === null) {
      return <Empty style={{ marginTop: 64 }} description={t('chatHistory.noScenes')} />;
    }
    if (fields.isError) {
      return (
        <Result
          status="warning"
          title={t('userProfile.loadFailed')}
          subTitle={errorText(fields.error, currentLocale())}
          extra={<Button onClick={() => void fields.refetch()}>{t('common.retry')}</Button>}
          data-testid="profile-fields-error"
        />
      );
    }
    if (list.isError) {
      return (
        <ListLoadError
          title={t('userProfile.list.loadFailed')}
          error={list.error}
          onRetry={() => void list.refetch()}
          testId="profile-list-error"
        />
      );
    }
    const empty = filtered ? (
      <Empty description={t('userProfile.list.noMatch')} data-testid="profile-list-no-match">
        <Button onClick={clearFilters}>{t('userProfile.filters.clear')}</Button>
      </Empty>
    ) : (
      <Empty description={t('userProfile.list.none')} data-testid="profile-list-empty" />
    );
    return (
      <CustomerTable
        items={list.data?.items ?? []}
        total={total}
        totalKind={totalKind}
        page={page}
        loading={!list.data || list.isPlaceholderData}
        fields={fieldItems}
        activeId={openId}
        empty={list.data ? empty : <span />}
        onPage={setPage}
        conversationsHref={(customer) => conversationsHref(customer, sceneId, embedded)}
        onOpen={(customer) => {
          setOpened(customer);
          setOpenId(customer.id);
        }}
      />
    );
  };

  return (
    <div data-testid="page-userProfile">
      {header}
      <Tabs
        defaultActiveKey="customers"
        items={[
          {
            key: 'customers',
            label: t('userProfile.report.customersTab'),
            children: (
              <Card styles={{ body: { padding: 16 } }}>
                <Flex vertical gap={12}>
                  <CustomerFilters
                    filters={filters}
                    fields={fieldItems}
                    onChange={changeFilters}
                    onClear={filtered || filters.conditions.length > 0 ? clearFilters : null}
                  />
                  {fields.isSuccess && fieldItems.length === 0 ? (
                    // The profile column is empty until the scene has fields: say what fills it.
                    <Alert
                      type="info"
                      showIcon
                      title={t('userProfile.noFields.title')}
                      description={t(canDefine ? 'userProfile.noFields.text' : 'userProfile.noFields.member')}
                      action={
                        canDefine ? (
                          <Button size="small" type="primary" onClick={() => setFieldsOpen(true)}>
                            {t('userProfile.noFields.define')}
                          </Button>
                        ) : null
                      }
                      data-testid="profile-no-fields"
                    />
                  ) : null}
                  {content()}
                </Flex>
              </Card>
            ),
          },
          ...(sceneId !== null
            ? [
                {
                  key: 'activation',
                  label: <span data-testid="profile-tab-activation">{t('userProfile.activation.tab')}</span>,
                  children: (
                    <Card styles={{ body: { padding: 16 } }}>
                      <ActivationTab
                        spaceId={spaceId}
                        sceneId={sceneId}
                        canActivate={canActivate}
                        filters={body}
                        customers={list.data?.items ?? []}
                      />
                    </Card>
                  ),
                },
              ]
            : []),
          {
            key: 'reports',
            label: <span data-testid="profile-tab-reports">{t('userProfile.report.tab')}</span>,
            children: (
              <Card styles={{ body: { padding: 16 } }}>
                <ReportTab
                  spaceId={spaceId}
                  sceneId={sceneId}
                  onOpenCustomer={(id) => {
                    setOpened(undefined);
                    setOpenId(id);
                  }}
                />
              </Card>
            ),
          },
        ]}
      />
      {sceneId !== null ? (
        <>
          <CustomerDrawer
            customerId={openId}
            initial={opened?.id === openId ? opened : undefined}
            fields={fieldItems}
            canDefine={canDefine}
            canEdit={canEdit}
            spaceId={spaceId}
            sceneId={sceneId}
            onClose={() => setOpenId(null)}
            conversationsHref={(customer) => conversationsHref(customer, sceneId, embedded)}
            onDefineFields={() => setFieldsOpen(true)}
          />
          <SatisfactionSettingsModal
            open={satisfactionOpen}
            onClose={() => setSatisfactionOpen(false)}
            spaceId={spaceId}
            sceneId={sceneId}
          />
          <FieldsDrawer
            open={fieldsOpen}
            onClose={() => setFieldsOpen(false)}
            fields={fieldItems}
            canDefine={canDefine}
            spaceId={spaceId}
            sceneId={sceneId}
          />
        </>
      ) : null}
    </div>
  );
}
