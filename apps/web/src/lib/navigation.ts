import { useCallback } from 'react';
import { generatePath, useNavigate } from 'react-router';
import { isRouteName, ROUTES, type RouteName } from './route-table.ts';

export type ExternalUrl = `http://${string}` | `https://${string}`;

export interface GoOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | null | undefined>;
  hash?: string;
  replace?: boolean;
}

export const isExternalUrl = (value: string): value is ExternalUrl => /^https?:\/\//i.test(value);

/** The in-app href of a named route: `buildHref('knowledgeUnit', { params: { knowledgeId, unitId } })`. */
export function buildHref(name: RouteName, { params = {}, query = {}, hash }: GoOptions = {}): string {
  const stringParams = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)]));
  // generatePath's typing wants the literal pattern; the table's patterns are checked by the router.
  const path = generatePath(ROUTES[name].path as string, stringParams);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  const fragment = hash ? `#${hash.replace(/^#/, '')}` : '';
  return `${path}${qs ? `?${qs}` : ''}${fragment}`;
}

/** Opens an outside link in a new tab without giving it a handle on this window. */
export function openExternal(url: ExternalUrl): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * The one navigation helper: http(s) links open in a new tab; anything else is a named
 * route, with params, query and hash.
 */
export function useGo() {
  const navigate = useNavigate();
  return useCallback(
    (target: RouteName | ExternalUrl, options: GoOptions = {}) => {
      if (isExternalUrl(target)) {
        openExternal(target);
        return;
      }
      if (!isRouteName(target)) throw new Error(`Unknown route name: ${target}`);
      navigate(buildHref(target, options), { replace: options.replace });
    },
    [navigate],
  );
}
