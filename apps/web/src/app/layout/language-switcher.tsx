import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale } from '../../lib/i18n.ts';
import { detectLocale, SUPPORTED_LOCALES } from '../../lib/locale.ts';

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
        onClick: ({ key }) => void changeLocale(detectLocale(key)),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switcher" aria-label={t('language.label')}>
        {compact ? null : t(`language.${current}`)}
      </Button>
    </Dropdown>
  );
}
