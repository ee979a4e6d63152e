import type { Language } from '@athena/contract';
import { ApiError, errorText } from './api-client.ts';
import { currentLocale } from './i18n.ts';

/** True when the API client already reacted to the failure (session expired, space gone: reloading). */
export const wasHandled = (error: unknown): boolean => error instanceof ApiError && error.handled;

/**
 * The text to show for a failed call: the server's message, or the localised 'System error' — or
 * null when the API client already reacted (session expired, space gone: the page is reloading
 * and shows its own notice), so nothing flashes on the way out. Forms that show an error inline
 * use this too.
 */
export function errorNotice(error: unknown, language: Language = currentLocale()): string | null {
  return wasHandled(error) ? null : errorText(error, language);
}

let outlet: ((text: string) => void) | null = null;

/**
 * Ant Design's message API needs the App context, so the shell hands it over once mounted
 * (app/providers.tsx). Returns the function that takes it back.
 */
export function setErrorNoticeOutlet(show: (text: string) => void): () => void {
  outlet = show;
  return () => {
    if (outlet === show) outlet = null;
  };
}

/**
 * Shows a failed call as an error toast, unless it was handled. Failed mutations come here by
 * themselves (lib/query-client.ts); call it directly only for failures outside a mutation.
 */
export function showErrorNotice(error: unknown, language?: Language): void {
  const text = errorNotice(error, language);
  if (text) outlet?.(text);
}
