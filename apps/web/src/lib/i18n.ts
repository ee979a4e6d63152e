import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import relativeTime from 'dayjs/plugin/relativeTime';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLocale, type Locale } from './locale.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

dayjs.extend(relativeTime);

const DAYJS_LOCALES: Record<Locale, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', en: 'en' };

type Translation = typeof import('../locales/en.json');
type FeatureTranslation = typeof import('../locales/en.features.json');

// Only the language in use is downloaded; the others load when the person switches (the /login
// bundle has a size budget, and each language's texts plus Ant Design's are ~10 KB gzipped).
const LOADERS: Record<Locale, () => Promise<[{ default: Translation }, { default: AntdLocale }]>> = {
  'zh-CN': () => Promise.all([import('../locales/zh-CN.json'), import('antd/es/locale/zh_CN')]),
  'zh-TW': () => Promise.all([import('../locales/zh-TW.json'), import('antd/es/locale/zh_TW')]),
  en: () => Promise.all([import('../locales/en.json'), import('antd/es/locale/en_US')]),
};

/**
 * Texts of the pages behind sign-in (team, account, agents, …) live in `<locale>.features.json`
 * and load with the first of those pages, so /login downloads only the shell's and login's texts.
 */
const FEATURE_LOADERS: Record<Locale, () => Promise<{ default: FeatureTranslation }>> = {
  'zh-CN': () => import('../locales/zh-CN.features.json'),
  'zh-TW': () => import('../locales/zh-TW.features.json'),
  en: () => import('../locales/en.features.json'),
};
const featuresLoaded = new Set<Locale>();
let featuresWanted = false;

async function addFeatureStrings(locale: Locale) {
  if (featuresLoaded.has(locale)) return;
  const strings = await FEATURE_LOADERS[locale]();
  i18n.addResourceBundle(locale, 'translation', strings.default, true, true);
  featuresLoaded.add(locale);
}

/** Loads the feature pages' texts for the current locale (and any later one). Idempotent. */
export async function loadFeatureStrings(): Promise<void> {
  featuresWanted = true;
  await addFeatureStrings(currentLocale());
}

const antdLocales = new Map<Locale, AntdLocale>();

/** Ant Design's texts for a locale that has been loaded (always true for the current one). */
export const antdLocaleFor = (locale: Locale): AntdLocale | undefined => antdLocales.get(locale);

async function ensureLoaded(locale: Locale): Promise<Translation> {
  const [translation, antd] = await LOADERS[locale]();
  antdLocales.set(locale, antd.default);
  return translation.default;
}

function applySideEffects(locale: Locale) {
  dayjs.locale(DAYJS_LOCALES[locale]);
  document.documentElement.lang = locale;
}

/** Starts i18next with the detected locale (detectLocale). Call once before rendering. */
export async function initI18n(): Promise<void> {
  const locale = detectLocale(localStorage.getItem(STORAGE_KEYS.language), navigator.languages);
  const translation = await ensureLoaded(locale);
  applySideEffects(locale);
  await i18n.use(initReactI18next).init({
    resources: { [locale]: { translation } },
    lng: locale,
    // Every key exists in every file (scripts/check-locales.mjs), so no fallback language is needed.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

/** The locale now in use. */
export const currentLocale = (): Locale => detectLocale(i18n.language);

/**
 * Switches the UI, dates, Ant Design and the `language` request header together. With
 * `remember: false` the stored choice is dropped, so the device (browser language) decides again.
 */
export async function changeLocale(locale: Locale, { remember = true }: { remember?: boolean } = {}): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation')) {
    i18n.addResourceBundle(locale, 'translation', await ensureLoaded(locale));
  }
  if (featuresWanted) await addFeatureStrings(locale);
  if (remember) localStorage.setItem(STORAGE_KEYS.language, locale);
  else localStorage.removeItem(STORAGE_KEYS.language);
  applySideEffects(locale);
  await i18n.changeLanguage(locale);
}
