import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, type ThemeConfig } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocaleFor } from '../lib/i18n.ts';
import { detectLocale, type Locale } from '../lib/locale.ts';
import { queryClient } from './query-client.ts';

const LATIN = "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'Helvetica Neue', Arial";
const CJK: Record<Locale, string> = {
  'zh-CN': "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC'",
  'zh-TW': "'PingFang TC', 'Microsoft JhengHei', 'Noto Sans CJK TC', 'Source Han Sans TC'",
  en: "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC'",
};

/** Brand colour and radius; the font stack follows the language so Traditional Chinese gets TC glyphs. */
const themeFor = (locale: Locale): ThemeConfig => ({
  token: {
    colorPrimary: '#4f46e5',
    colorLink: '#4f46e5',
    borderRadius: 8,
    fontFamily: `${LATIN}, ${CJK[locale]}, sans-serif`,
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#ffffff', bodyBg: '#f5f6fa' },
    Menu: { itemHeight: 36, itemMarginBlock: 2, groupTitleFontSize: 12 },
  },
});
const THEMES: Record<Locale, ThemeConfig> = {
  'zh-CN': themeFor('zh-CN'),
  'zh-TW': themeFor('zh-TW'),
  en: themeFor('en'),
};

export function AppProviders({ children }: { children: ReactNode }) {
  // Re-renders on language change, so Ant Design's own texts follow the choice.
  const { i18n } = useTranslation();
  const locale = detectLocale(i18n.language);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocaleFor(locale)} theme={THEMES[locale]} button={{ autoInsertSpace: false }}>
        <App>{children}</App>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
