import type { UploadData, UploadDescriptor, UploadHeaders, UploadQuery } from '@athena/contract';
import { ApiError, REQUEST_TIMEOUT_MS, requestHeaders, settleResponse } from './api-client.ts';

/** A running upload: its answer (the route's `data`) and a way to stop it. */
export interface UploadHandle<T> {
  promise: Promise<T>;
  abort: () => void;
}

// Query and headers may be left out only when the descriptor requires none of them.
type NoFields = Record<never, never>;
type QueryOption<Q> = NoFields extends Q ? { query?: Q } : { query: Q };
type HeadersOption<H> = NoFields extends H ? { headers?: H } : { headers: H };

export type UploadOptions<U extends UploadDescriptor> = QueryOption<UploadQuery<U>> &
  HeadersOption<UploadHeaders<U>> & {
    /** What to declare; the descriptor's first content type when absent. */
    contentType?: string;
    /** The share of the body sent so far, 0–100 (not rounded). */
    onProgress?: (percent: number) => void;
  };

export interface UploadClientDeps {
  /** The API client's own headers (token, space-id, scene-id, language, timezone). */
  headers: (contentType: string) => Record<string, string>;
  /** The API client's envelope rules, including its reactions to 10001 and 16023. */
  settle: (response: { ok: boolean; status: number }, text: string) => unknown;
  createXhr?: () => XMLHttpRequest;
  timeoutMs?: number;
}

/** Marks an upload stopped on purpose (the file was removed, the page left): not a failure to show. */
export const isAborted = (error: unknown) => error instanceof ApiError && error.code === 'aborted';

/** The route's path with its query, every value URI-encoded; absent values are left out. */
export function uploadUrl<U extends UploadDescriptor>(route: U, query?: UploadQuery<U>): string {
  const pairs = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return pairs.length ? `${route.path}?${pairs.join('&')}` : route.path;
}

/**
 * Uploads with XMLHttpRequest, the only browser API that reports upload progress. It sends the
 * API client's headers and hands the answer to the API client's envelope rules, so a lapsed
 * session or a lost space behaves exactly as on every other call.
 */
export function createUploadClient(deps: UploadClientDeps) {
  const createXhr = deps.createXhr ?? (() => new XMLHttpRequest());
  return function upload<U extends UploadDescriptor>(
    route: U,
    file: Blob,
    options: UploadOptions<U>,
  ): UploadHandle<UploadData<U>> {
    const xhr = createXhr();
    const promise = new Promise<UploadData<U>>((resolve, reject) => {
      xhr.open('POST', uploadUrl(route, options.query));
      xhr.timeout = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
      const extra = Object.entries((options.headers ?? {}) as Record<string, string | undefined>);
      const headers = { ...deps.headers(options.contentType ?? route.contentTypes[0]) };
      for (const [name, value] of extra) if (value !== undefined) headers[name] = value;
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) options.onProgress?.((event.loaded / event.total) * 100);
      };
      xhr.onload = () => {
        try {
          const ok = xhr.status >= 200 && xhr.status < 300;
          resolve(deps.settle({ ok, status: xhr.status }, xhr.responseText) as UploadData<U>);
        } catch (error) {
          reject(error);
        }
      };
      xhr.onerror = () => reject(new ApiError('', undefined, 'network'));
      xhr.ontimeout = () => reject(new ApiError('', undefined, 'timeout'));
      xhr.onabort = () => reject(new ApiError('', 'aborted', 'network', true));
      xhr.send(file);
    });
    return { promise, abort: () => xhr.abort() };
  };
}

let defaultUpload: ReturnType<typeof createUploadClient> | undefined;

/** Uploads one file to a contract upload route: `upload(avatarUpload, file, { contentType })`. */
export function upload<U extends UploadDescriptor>(
  route: U,
  file: Blob,
  options: UploadOptions<U>,
): UploadHandle<UploadData<U>> {
  defaultUpload ??= createUploadClient({ headers: requestHeaders, settle: settleResponse });
  return defaultUpload(route, file, options);
}
