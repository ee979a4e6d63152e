import { attachmentUpload, avatarUpload, knowledgeUpload } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { type ApiClientDeps, createApiClient } from './api-client.ts';
import { STORAGE_KEYS } from './storage-keys.ts';
import { createUploadClient, isAborted, uploadUrl } from './upload-client.ts';

/** Just enough of XMLHttpRequest for the client: records the request, answers when told. */
class FakeXhr {
  method = '';
  url = '';
  timeout = 0;
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

function setup(initial: Record<string, string> = {}, overrides: Partial<ApiClientDeps> = {}) {
  const storage = new Map(Object.entries(initial));
  const assigned: string[] = [];
  const api = createApiClient({
    fetch,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
      clear: () => storage.clear(),
    },
    assignLocation: (url) => assigned.push(url),
    notify: () => undefined,
    getLanguage: () => 'en',
    getTimezone: () => 'Asia/Shanghai',
    ...overrides,
  });
  const requests: FakeXhr[] = [];
  const upload = createUploadClient({
    headers: api.headers,
    settle: api.settle,
    timeoutMs: 1234,
    createXhr: () => {
      const xhr = new FakeXhr();
      requests.push(xhr);
      return xhr as unknown as XMLHttpRequest;
    },
  });
  return { upload, requests, storage, assigned };
}

const file = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])]);

describe('upload client', () => {
  it('builds the URL from the descriptor’s path and its typed query, every value URI-encoded', () => {
    expect(uploadUrl(knowledgeUpload, { knowledge_id: 'k 1', file_name: 'a&b=c.pdf' })).toBe(
      '/api/athena/v1/knowledge/unit/upload?knowledge_id=k%201&file_name=a%26b%3Dc.pdf',
    );
    expect(uploadUrl(avatarUpload)).toBe('/accountv2/user/avatar');
  });

  it('POSTs the file with the API client’s headers and the content type asked for, and unwraps data', async () => {
    const { upload, requests } = setup({ [STORAGE_KEYS.token]: 'tok-2' }, { getLanguage: () => 'zh-CN' });
    const handle = upload(avatarUpload, file, { contentType: 'image/png' });
    const [xhr] = requests;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/accountv2/user/avatar');
    expect(xhr.timeout).toBe(1234);
    expect(xhr.body).toBe(file);
    expect(xhr.headers).toMatchObject({
      'content-type': 'image/png',
      token: 'tok-2',
      language: 'zh-CN',
      timezone: 'Asia/Shanghai',
      'scene-id': '5',
    });
    xhr.answer(200, { code: 0, msg: 'ok', data: { avatar_url: '/files/a.png' } });
    await expect(handle.promise).resolves.toEqual({ avatar_url: '/files/a.png' });
  });

  it('declares the descriptor’s first content type by default and adds the route’s own headers', async () => {
    const { upload, requests } = setup({ [STORAGE_KEYS.spaceId]: 'space-9' });
    const progress: number[] = [];
    const handle = upload(attachmentUpload, file, {
      headers: { 'x-file-name': encodeURIComponent('报价 单.pdf') },
      onProgress: (percent) => progress.push(percent),
    });
    const [xhr] = requests;
    expect(xhr.headers['content-type']).toBe('application/octet-stream');
    expect(xhr.headers['space-id']).toBe('space-9');
    expect(xhr.headers['x-file-name']).toBe('%E6%8A%A5%E4%BB%B7%20%E5%8D%95.pdf');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 2, total: 0 });
    expect(progress).toEqual([25]);
    xhr.answer(200, { code: 0, msg: 'ok', data: { id: 'a1' } });
    await expect(handle.promise).resolves.toEqual({ id: 'a1' });
  });

  it('rejects like any call: the business msg, and a bare 413 with its status', async () => {
    const { upload, requests } = setup();
    const refused = upload(avatarUpload, file, {});
    requests[0].answer(200, { code: 40053, msg: 'The avatar must be a JPG or PNG image.' });
    await expect(refused.promise).rejects.toMatchObject({
      code: 40053,
      kind: 'business',
      message: 'The avatar must be a JPG or PNG image.',
    });
    const cut = upload(avatarUpload, file, {});
    requests[1].answer(413, 'too large');
    await expect(cut.promise).rejects.toMatchObject({ kind: 'http', status: 413 });
  });

  it('reacts to a lapsed session as every call does', async () => {
    const { upload, requests, storage, assigned } = setup({ [STORAGE_KEYS.token]: 'old' });
    const handle = upload(avatarUpload, file, {});
    requests[0].answer(200, { code: 10001, msg: 'expired' });
    await expect(handle.promise).rejects.toMatchObject({ code: 10001, handled: true });
    expect(storage.size).toBe(0);
    expect(assigned).toEqual(['/']);
  });

  it('tells a stopped upload from a lost connection or a timeout', async () => {
    const { upload, requests } = setup();
    const stopped = upload(avatarUpload, file, {});
    stopped.abort();
    const stoppedError = await stopped.promise.catch((error: unknown) => error);
    expect(isAborted(stoppedError)).toBe(true);

    const lost = upload(avatarUpload, file, {});
    requests[1].onerror?.();
    const lostError = await lost.promise.catch((error: unknown) => error);
    expect(lostError).toMatchObject({ kind: 'network' });
    expect(isAborted(lostError)).toBe(false);

    const slow = upload(avatarUpload, file, {});
    requests[2].ontimeout?.();
    await expect(slow.promise).rejects.toMatchObject({ kind: 'timeout' });
  });
});
