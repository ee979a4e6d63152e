import { GlobalOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale } from '../../lib/i18n.ts';
import { detectLocale, SUPPORTED_LOCALES } from '../../lib/locale.ts';

/**
 * The login panel's language choice: a native select, because antd's Dropdown alone is ~14 KB
 * gzipped and /login has a size budget. Signed-in people use the header's switcher instead.
 */
export function LoginLanguage() {
  const { t, i18n } = useTranslation();
  const { token: design } = theme.useToken();
  const current = detectLocale(i18n.language);
  return (
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: 6, color: design.colorTextSecondary }}>
      <GlobalOutlined aria-hidden />
      <select
        data-testid="login-language"
        aria-label={t('language.label')}
        value={current}
        onChange={(event) => void changeLocale(detectLocale(event.target.value))}
        style={{
          border: 'none',
          background: 'transparent',
          color: design.colorText,
          fontSize: design.fontSize,
          cursor: 'pointer',
          padding: '4px 2px',
        }}
      >
        {SUPPORTED_LOCALES.map((locale) => (
          <option key={locale} value={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
