import { BgColorsOutlined, ClockCircleOutlined, GlobalOutlined, HomeOutlined } from '@ant-design/icons';
import { accountRoutes, type Settings, spaceRoutes } from '@athena/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Segmented, Select, Skeleton, Tag, Typography, theme } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { detectLocale, SUPPORTED_LOCALES } from '../../lib/locale.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { saveSettings } from '../../lib/settings-api.ts';
import { deviceTimezone } from '../../lib/timezone.ts';
import { userTime } from '../../lib/user-time.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { resolveTheme, useAppearanceStore } from '../../stores/appearance-store.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { applySettings, followBrowserLanguage } from './apply-settings.ts';
import {
  FOLLOW_BROWSER,
  FOLLOW_DEVICE,
  LAST_USED_SPACE,
  matchesTimezone,
  type SettingsFormValues,
  supportedTimezones,
  timezoneOptions,
  toFormValues,
  toPatch,
  utcOffsetLabel,
} from './settings-logic.ts';

function SettingRow({
  icon,
  title,
  hint,
  children,
  last = false,
}: {
  icon: ReactNode;
  title: string;
  hint: ReactNode;
  children: ReactNode;
  last?: boolean;
}) {
  const { token } = theme.useToken();
  return (
    <Flex
      gap={16}
      wrap
      align="flex-start"
      style={{ padding: '18px 0', borderBottom: last ? undefined : `1px solid ${token.colorSplit}` }}
    >
      <Flex
        align="center"
        justify="center"
        style={{ width: 40, height: 40, borderRadius: 10, background: token.colorFillTertiary, fontSize: 18 }}
      >
        {icon}
      </Flex>
      <Flex vertical gap={2} style={{ flex: '1 1 240px' }}>
        <Typography.Text strong>{title}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {hint}
        </Typography.Text>
      </Flex>
      <div style={{ flex: '0 1 340px', minWidth: 240 }}>{children}</div>
    </Flex>
  );
}

/** /settings: language, time zone, theme and default space — saved on the server, applied at once. */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const initial = useUserStore((s) => s.userinfo?.settings);
  const settings = useQuery({
    queryKey: queryKeys.account.settings(),
    queryFn: () => api(accountRoutes.settingsGet),
    placeholderData: initial,
  });
  const spaces = useQuery({ queryKey: queryKeys.space.list(), queryFn: () => api(spaceRoutes.list) });
  const systemDark = useAppearanceStore((s) => s.systemDark);
  const [saving, setSaving] = useState<keyof SettingsFormValues | null>(null);
  const now = useNow(60_000);
  const zoneOptions = useMemo(() => timezoneOptions(supportedTimezones(), new Date()), []);

  // Saved, then put into effect here: a failure of either shows the error notice.
  const save = useMutation({
    mutationFn: async ({ key, patch }: { key: keyof SettingsFormValues; patch: Partial<Settings> }) => {
      const next: Settings = await saveSettings(patch);
      if (key === 'language' && patch.language === null) await followBrowserLanguage();
      await applySettings(next);
    },
  });

  const change = async <K extends keyof SettingsFormValues>(key: K, value: SettingsFormValues[K]) => {
    setSaving(key);
    try {
      await save.mutateAsync({ key, patch: toPatch(key, value) });
      // i18n.t, not the render's t: the language may just have changed.
      void message.success(i18n.t('settings.saved'));
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSaving(null);
    }
  };

  if (settings.isPending) return <Skeleton active data-testid="settings-loading" />;
  if (settings.isError && !settings.data) {
    return (
      <Alert
        data-testid="settings-error"
        type="warning"
        showIcon
        title={t('settings.loadError')}
        description={errorText(settings.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void settings.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const values = toFormValues(settings.data);
  const device = deviceTimezone();
  const activeZone = settings.data.timezone ?? device;
  const browserLocale = detectLocale(null, navigator.languages);
  const spaceItems = spaces.data?.items ?? [];
  const defaultSpaceMissing =
    values.default_space_id !== LAST_USED_SPACE &&
    spaces.isSuccess &&
    !spaceItems.some((s) => s.id === values.default_space_id);

  return (
    <Flex vertical gap={16} data-testid="page-settings">
      <PageHeader title={t('routes.settings')} subtitle={t('settings.intro')} />
      <Card>
        <SettingRow icon={<GlobalOutlined />} title={t('settings.language')} hint={t('settings.languageHint')}>
          <Select
            data-testid="settings-language"
            style={{ width: '100%' }}
            value={values.language}
            loading={saving === 'language'}
            onChange={(value) => void change('language', value)}
            options={[
              ...SUPPORTED_LOCALES.map((locale) => ({
                value: locale,
                label: <span data-testid={`settings-language-option-${locale}`}>{t(`language.${locale}`)}</span>,
              })),
              {
                value: FOLLOW_BROWSER,
                label: (
                  <span data-testid="settings-language-option-browser">
                    {t('settings.followBrowser', { language: t(`language.${browserLocale}`) })}
                  </span>
                ),
              },
            ]}
          />
        </SettingRow>

        <SettingRow
          icon={<ClockCircleOutlined />}
          title={t('settings.timezone')}
          hint={
            <span data-testid="settings-timezone-now">
              {t('settings.timezoneHint', {
                zone: activeZone,
                time: userTime(new Date(now)).format('YYYY-MM-DD HH:mm'),
              })}
            </span>
          }
        >
          <Select
            data-testid="settings-timezone"
            style={{ width: '100%' }}
            value={values.timezone}
            loading={saving === 'timezone'}
            showSearch={{
              filterOption: (input, option) => (option ? matchesTimezone(input, option) : false),
            }}
            placeholder={t('settings.timezoneSearch')}
            onChange={(value) => void change('timezone', value)}
            options={[
              {
                value: FOLLOW_DEVICE,
                label: t('settings.followDevice', { zone: `${device}, ${utcOffsetLabel(device, new Date(now))}` }),
              },
              ...zoneOptions.map(({ value, label }) => ({ value, label })),
            ]}
            virtual
          />
        </SettingRow>

        <SettingRow
          icon={<BgColorsOutlined />}
          title={t('settings.theme')}
          hint={
            values.theme === 'system'
              ? t(`settings.systemNow.${resolveTheme('system', systemDark)}`)
              : t('settings.themeHint')
          }
        >
          <Segmented
            data-testid="settings-theme"
            block
            value={values.theme}
            disabled={saving === 'theme'}
            onChange={(value) => void change('theme', value)}
            options={(['light', 'dark', 'system'] as const).map((mode) => ({
              value: mode,
              label: <span data-testid={`settings-theme-${mode}`}>{t(`settings.themes.${mode}`)}</span>,
            }))}
          />
        </SettingRow>

        <SettingRow
          last
          icon={<HomeOutlined />}
          title={t('settings.defaultSpace')}
          hint={
            defaultSpaceMissing ? (
              <Tag color="warning">{t('settings.defaultSpaceGone')}</Tag>
            ) : (
              t('settings.defaultSpaceHint')
            )
          }
        >
          <Select
            data-testid="settings-default-space"
            style={{ width: '100%' }}
            value={defaultSpaceMissing ? LAST_USED_SPACE : values.default_space_id}
            loading={saving === 'default_space_id' || spaces.isPending}
            status={spaces.isError ? 'warning' : undefined}
            notFoundContent={spaces.isError ? errorText(spaces.error, currentLocale()) : undefined}
            onChange={(value) => void change('default_space_id', value)}
            options={[
              { value: LAST_USED_SPACE, label: t('settings.lastUsedSpace') },
              ...spaceItems.map((space) => ({
                value: space.id,
                label: space.personal ? `${space.name} (${t('header.personal')})` : space.name,
              })),
            ]}
          />
        </SettingRow>
      </Card>
    </Flex>
  );
}
