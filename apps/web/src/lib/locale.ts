import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@athena/contract';

export const SUPPORTED_LOCALES = LANGUAGES;
export type Locale = Language;
export const FALLBACK_LOCALE: Locale = DEFAULT_LANGUAGE;

const isSupported = (value: string): value is Locale => (SUPPORTED_LOCALES as readonly string[]).includes(value);

/** Maps one browser language tag to a supported locale, or undefined when none fits. */
function fromBrowserTag(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase();
  if (!lower) return undefined;
  const [base] = lower.split('-');
  if (base === 'zh') {
    // Only mainland Simplified stays zh-CN; every other Chinese variant reads Traditional.
    return lower === 'zh-cn' || lower === 'zh-hans-cn' ? 'zh-CN' : 'zh-TW';
  }
  return isSupported(base) ? base : undefined;
}

/**
 * The stored choice; otherwise the browser language (zh-CN stays zh-CN, any other zh becomes
 * zh-TW, otherwise the base language); fallback zh-CN (requirements.md, Languages). Only the first
 * browser language counts: the requirement speaks of "the browser language", one.
 */
export function detectLocale(stored: string | null | undefined, navigatorLanguages: readonly string[] = []): Locale {
  if (stored && isSupported(stored)) return stored;
  const first = navigatorLanguages[0];
  return (first && fromBrowserTag(first)) || FALLBACK_LOCALE;
}
