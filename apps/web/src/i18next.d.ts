import 'i18next';
import type enFeatures from './locales/en.features.json';
import type en from './locales/en.json';

// Makes t('…') check its key against the locale files at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof enFeatures };
  }
}
