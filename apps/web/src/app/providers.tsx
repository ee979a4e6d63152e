import { QueryClientProvider } from '@tanstack/react-query';
import { App, theme as antdTheme, ConfigProvider, type ThemeConfig } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setErrorNoticeOutlet } from '../lib/error-notice.ts';
import { antdLocaleFor } from '../lib/i18n.ts';
import { detectLocale, type Locale } from '../lib/locale.ts';
import { queryClient } from '../lib/query-client.ts';
import { useIsDark } from '../stores/appearance-store.ts';

const LATIN = "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'Helvetica Neue', Arial";
const CJK: Record<Locale, string> = {
  'zh-CN': "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC'",
  'zh-TW': "'PingFang TC', 'Microsoft JhengHei', 'Noto Sans CJK TC', 'Source Han Sans TC'",
  en: "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC'",
};

const LAYOUT_COLORS = {
  light: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f6fa' },
  dark: { headerBg: '#141414', siderBg: '#141414', bodyBg: '#000000' },
};

/** Brand colour and radius; the font stack follows the language so Traditional Chinese gets TC glyphs. */
const themeFor = (locale: Locale, dark = false): ThemeConfig => ({
  algorithm: dark ? antdTheme.darkAlgorithm : undefined,
  token: {
    colorPrimary: '#4f46e5',
    colorLink: '#4f46e5',
    borderRadius: 8,
    fontFamily: `${LATIN}, ${CJK[locale]}, sans-serif`,
  },
  components: {
    Layout: LAYOUT_COLORS[dark ? 'dark' : 'light'],
    Menu: { itemHeight: 36, itemMarginBlock: 2, groupTitleFontSize: 12 },
  },
});
/** A dialog's title stands apart from its first field (Ant Design's 8 px read as one block). */
const MODAL_CONFIG = { styles: { header: { marginBottom: 20 } } } as const;
const THEMES: Record<Locale, ThemeConfig> = {
  'zh-CN': themeFor('zh-CN'),
  'zh-TW': themeFor('zh-TW'),
  en: themeFor('en'),
};
const DARK_THEMES: Record<Locale, ThemeConfig> = {
  'zh-CN': themeFor('zh-CN', true),
  'zh-TW': themeFor('zh-TW', true),
  en: themeFor('en', true),
};

/** Hands Ant Design's message API (it needs the App context) to the one error notice path. */
function ErrorNoticeOutlet() {
  const { message } = App.useApp();
  useEffect(() => setErrorNoticeOutlet((text) => void message.error(text)), [message]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  // Re-renders on language change, so Ant Design's own texts follow the choice.
  const { i18n } = useTranslation();
  const locale = detectLocale(i18n.language);
  // The person's theme setting (light / dark / follow the system, live).
  const dark = useIsDark();
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = dark ? 'dark' : 'light';
    root.style.colorScheme = dark ? 'dark' : 'light';
    document.body.style.background = LAYOUT_COLORS[dark ? 'dark' : 'light'].bodyBg;
  }, [dark]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={antdLocaleFor(locale)}
        theme={(dark ? DARK_THEMES : THEMES)[locale]}
        button={{ autoInsertSpace: false }}
        modal={MODAL_CONFIG}
      >
        <App>
          <ErrorNoticeOutlet />
          {children}
        </App>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
