import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { changeLocale } from '../../lib/i18n.ts';
import { detectLocale, type Locale, SUPPORTED_LOCALES } from '../../lib/locale.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** Signed in, the language is a setting that follows the person: save it on the server too. */
function saveForSignedInUser(locale: Locale): Promise<unknown> | undefined {
  if (!useUserStore.getState().userinfo) return undefined;
  // Loaded on demand: the settings code is not part of /login.
  return import('../../lib/settings-api.ts').then((m) => m.saveLanguage(locale));
}

/** 简体中文 / 繁體中文 / English; each name is written in its own language. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = detectLocale(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: SUPPORTED_LOCALES.map((locale) => ({
          key: locale,
          label: <span data-testid={`language-option-${locale}`}>{t(`language.${locale}`)}</span>,
        })),
        onClick: ({ key }) => {
          const locale = detectLocale(key);
          void changeLocale(locale);
          saveForSignedInUser(locale)?.catch((error: unknown) => showErrorNotice(error, locale));
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switcher" aria-label={t('language.label')}>
        {compact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
