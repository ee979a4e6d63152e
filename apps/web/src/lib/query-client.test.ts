import { ERRORS } from '@athena/contract';
import type { MutationMeta } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { setErrorNoticeOutlet } from './error-notice.ts';
import { queryClient } from './query-client.ts';

/** Runs one failing mutation through the app's query client and returns the notices shown. */
async function failMutation(error: Error, meta?: MutationMeta): Promise<string[]> {
  const shown: string[] = [];
  const release = setErrorNoticeOutlet((text) => shown.push(text));
  try {
    const mutation = queryClient.getMutationCache().build(queryClient, {
      mutationFn: () => Promise.reject(error),
      meta,
    });
    await expect(mutation.execute(undefined)).rejects.toBe(error);
  } finally {
    release();
  }
  return shown;
}

describe('the error notice of failed mutations', () => {
  afterEach(() => queryClient.clear());

  it("shows the server's message", async () => {
    expect(await failMutation(new ApiError('名称已存在', 40400, 'business'))).toEqual(['名称已存在']);
  });

  it("falls back to the localised 'System error' when the failure says nothing", async () => {
    expect(await failMutation(new ApiError('', undefined, 'network'))).toEqual([ERRORS.SYSTEM_ERROR.msg['zh-CN']]);
  });

  it('stays silent when the API client already reacted (session expired, space gone)', async () => {
    expect(await failMutation(new ApiError('登录已过期', 10001, 'business', true))).toEqual([]);
  });

  it('stays silent for a mutation that shows its failure itself', async () => {
    expect(await failMutation(new ApiError('手机号格式错误', 40002, 'business'), { errorNotice: false })).toEqual([]);
  });
});
