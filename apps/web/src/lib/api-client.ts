import {
  AGENT_SCENE_ID,
  DEFAULT_SCENE_ID,
  ERRORS,
  type Language,
  platformRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  type Scene,
} from '@athena/contract';
import { detectLocale } from './locale.ts';
import { PENDING_NOTICE_KEY, STORAGE_KEYS } from './storage-keys.ts';
import { activeTimezone } from './timezone.ts';

/** Every call may take up to ten minutes, e.g. long workflow runs (requirements.md, Calls). */
export const REQUEST_TIMEOUT_MS = 600_000;

/** Codes that mean the session is gone (requirements.md, Errors). */
const LOGIN_INVALID_CODES: ReadonlySet<number | string> = new Set([ERRORS.LOGIN_EXPIRED.code, -2, -4, 'LoginInvalid']);
const SPACE_UNAVAILABLE_CODE = ERRORS.SPACE_UNAVAILABLE.code;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'>;

export interface ApiClientDeps {
  fetch: typeof fetch;
  storage: KeyValueStorage;
  /** Full-page navigation, e.g. `(url) => window.location.assign(url)`. */
  assignLocation: (url: string) => void;
  /** Shows (or queues for after the reload) a message for the person. */
  notify: (message: string) => void;
  getLanguage: () => Language;
  getTimezone: () => string;
  /** Prepended to route paths; '' means same origin. */
  baseUrl?: string;
  timeoutMs?: number;
}

/**
 * A failed call. `message` is the server's localised `msg` for business failures and '' for
 * transport failures (non-2xx without an envelope, network error, timeout), which callers treat
 * as "say nothing specific". `handled` is true when the client already reacted (login expired,
 * space gone), so the UI should not show the error again.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | string | undefined,
    readonly kind: 'business' | 'http' | 'network' | 'timeout',
    readonly handled = false,
    readonly status?: number,
    /** Seconds until the call may be tried again, when a limit refused it (`retry_after`). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Envelope = Record<string, unknown>;

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const codeOf = (body: Envelope): number | string | undefined => {
  const code = body.code ?? body.errcode;
  return typeof code === 'number' || typeof code === 'string' ? code : undefined;
};

/** Success if `success` is true, or code/errcode is 0, or there is no code (requirements.md, Errors). */
export function isSuccess(body: Envelope): boolean {
  if (body.success === true) return true;
  const code = codeOf(body);
  return code === undefined || code === 0 || code === '0';
}

const messageOf = (body: Envelope): string => {
  const msg = body.msg ?? body.errmsg ?? body.message;
  return typeof msg === 'string' ? msg : '';
};

type BodyArgs<R extends RouteDescriptor> =
  undefined extends RouteBody<R> ? [body?: RouteBody<R>] : [body: RouteBody<R>];

export function createApiClient(deps: ApiClientDeps) {
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const baseUrl = deps.baseUrl ?? '';

  const headers = (contentType: string): Record<string, string> => {
    const h: Record<string, string> = {
      'content-type': contentType,
      language: deps.getLanguage(),
      timezone: deps.getTimezone(),
      'scene-id': deps.storage.getItem(STORAGE_KEYS.sceneId) ?? String(DEFAULT_SCENE_ID),
    };
    const token = deps.storage.getItem(STORAGE_KEYS.token);
    if (token) h.token = token;
    const spaceId = deps.storage.getItem(STORAGE_KEYS.spaceId);
    if (spaceId) h['space-id'] = spaceId;
    return h;
  };

  const fail = (body: Envelope): never => {
    const code = codeOf(body);
    const language = deps.getLanguage();
    if (code !== undefined && LOGIN_INVALID_CODES.has(code)) {
      const message = ERRORS.LOGIN_EXPIRED.msg[language];
      deps.storage.clear();
      deps.notify(message);
      deps.assignLocation('/');
      throw new ApiError(message, code, 'business', true);
    }
    if (code === SPACE_UNAVAILABLE_CODE) {
      deps.storage.removeItem(STORAGE_KEYS.spaceId);
      deps.assignLocation('/');
      throw new ApiError(messageOf(body) || ERRORS.SPACE_UNAVAILABLE.msg[language], code, 'business', true);
    }
    const retryAfter = typeof body.retry_after === 'number' ? body.retry_after : undefined;
    throw new ApiError(
      messageOf(body) || ERRORS.SYSTEM_ERROR.msg[language],
      code,
      'business',
      false,
      undefined,
      retryAfter,
    );
  };

  /** POSTs a body to a full URL and applies the envelope rules; resolves with `data`. */
  async function send(url: string, body: BodyInit, contentType: string): Promise<unknown> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await deps.fetch(url, {
        method: 'POST',
        headers: headers(contentType),
        body,
        signal: controller.signal,
      });
      text = await response.text();
    } catch {
      throw new ApiError('', undefined, controller.signal.aborted ? 'timeout' : 'network');
    } finally {
      clearTimeout(timer);
    }
    return settle(response, text);
  }

  /**
   * Applies the envelope rules to a finished response; resolves with `data`. Shared with calls
   * that cannot use fetch (XMLHttpRequest uploads that report progress).
   */
  function settle(response: { ok: boolean; status: number }, text: string): unknown {
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const envelope = isEnvelope(parsed) && codeOf(parsed) !== undefined ? parsed : undefined;
    if (!response.ok && !envelope) throw new ApiError('', undefined, 'http', false, response.status);
    if (!isEnvelope(parsed)) {
      if (!response.ok) throw new ApiError('', undefined, 'http', false, response.status);
      return parsed;
    }
    if (!response.ok || !isSuccess(parsed)) return fail(parsed);
    return 'data' in parsed ? parsed.data : parsed;
  }

  /** POSTs JSON to a full URL; resolves with `data`. */
  function post(url: string, body: unknown = {}): Promise<unknown> {
    return send(url, JSON.stringify(body ?? {}), 'application/json');
  }

  /** A typed call of one contract route: `api(authRoutes.bySms, { phone, code })`. */
  function api<R extends RouteDescriptor>(route: R, ...[body]: BodyArgs<R>): Promise<RouteData<R>> {
    return post(`${baseUrl}${route.path}`, body) as Promise<RouteData<R>>;
  }

  let sceneHosts: Promise<{ agentBase: string; scenes: Scene[] }> | undefined;
  const loadSceneHosts = () => {
    sceneHosts ??= Promise.all([api(platformRoutes.info), api(platformRoutes.sceneList)]).then(
      ([info, list]) => ({ agentBase: info.agent_api_base, scenes: list.items }),
      (error: unknown) => {
        sceneHosts = undefined;
        throw error;
      },
    );
    return sceneHosts;
  };

  /**
   * The second helper of requirements.md, Calls: scene-specific calls go to the agent API base for the agent scene
   * (10010), otherwise to the current scene's `quntool_host`; '' means this server.
   */
  async function sceneApi<T = unknown>(path: string, body: unknown = {}): Promise<T> {
    const sceneId = Number(deps.storage.getItem(STORAGE_KEYS.sceneId) ?? DEFAULT_SCENE_ID) || DEFAULT_SCENE_ID;
    const { agentBase, scenes } = await loadSceneHosts();
    const host =
      sceneId === AGENT_SCENE_ID ? agentBase : (scenes.find((scene) => scene.type === sceneId)?.quntool_host ?? '');
    const prefix = host ? host.replace(/\/$/, '') : baseUrl;
    return (await post(`${prefix}${path}`, body)) as T;
  }

  return { api, sceneApi, post, headers, settle };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's dependencies; only touched when the first call is made. */
export function browserApiDeps(): ApiClientDeps {
  return {
    fetch: (...args) => globalThis.fetch(...args),
    storage: window.localStorage,
    assignLocation: (url) => window.location.assign(url),
    // The page reloads right after, so the notice waits in sessionStorage (localStorage was wiped).
    notify: (message) => window.sessionStorage.setItem(PENDING_NOTICE_KEY, message),
    getLanguage: () => detectLocale(window.localStorage.getItem(STORAGE_KEYS.language), window.navigator.languages),
    getTimezone: activeTimezone,
  };
}

let defaultClient: ApiClient | undefined;
const client = () => {
  defaultClient ??= createApiClient(browserApiDeps());
  return defaultClient;
};

export function api<R extends RouteDescriptor>(route: R, ...body: BodyArgs<R>): Promise<RouteData<R>> {
  return client().api(route, ...body);
}

export function sceneApi<T = unknown>(path: string, body?: unknown): Promise<T> {
  return client().sceneApi<T>(path, body);
}

/** The headers every call sends (token, space-id, scene-id, language, timezone), for upload-client.ts. */
export function requestHeaders(contentType: string): Record<string, string> {
  return client().headers(contentType);
}

/** The envelope rules (including the 10001 and 16023 reactions) for a response read elsewhere. */
export function settleResponse(response: { ok: boolean; status: number }, text: string): unknown {
  return client().settle(response, text);
}

/** What to show for a failed call: the server's message, or the localised 'System error'. */
export function errorText(error: unknown, language: Language): string {
  return (error instanceof Error && error.message) || ERRORS.SYSTEM_ERROR.msg[language];
}
