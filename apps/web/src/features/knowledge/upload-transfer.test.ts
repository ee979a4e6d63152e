import { knowledgeUpload } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { isAborted, uploadUrl } from '../../lib/upload-client.ts';
import { newBatchId, uploadErrorText } from './upload-transfer.ts';

describe('knowledge uploads', () => {
  it('puts the base, the URI-encoded file name and the batch in the query', () => {
    const batch = newBatchId();
    expect(uploadUrl(knowledgeUpload, { knowledge_id: 'k-1', file_name: '退货 政策&v2.pdf', batch_id: batch })).toBe(
      `/api/athena/v1/knowledge/unit/upload?knowledge_id=k-1&file_name=%E9%80%80%E8%B4%A7%20%E6%94%BF%E7%AD%96%26v2.pdf&batch_id=${batch}`,
    );
    expect(batch).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newBatchId()).not.toBe(batch);
  });

  it('shows the server’s message when it refused the file', () => {
    const duplicate = new ApiError(
      'This knowledge base already has a file with the same content: “a.pdf”.',
      40105,
      'business',
    );
    expect(uploadErrorText(duplicate, 'en', 'connection lost')).toBe(duplicate.message);
  });

  it('says “file size exceeded” for a body cut off without an answer, else “upload failed”', () => {
    expect(uploadErrorText(new ApiError('', undefined, 'http', false, 413), 'zh-CN', '网络中断')).toBe(
      '文件大小超出限制，单个文件不能超过 20 MB。',
    );
    expect(uploadErrorText(new ApiError('', undefined, 'http', false, 502), 'en', 'x')).toBe('Upload failed: HTTP 502');
    expect(uploadErrorText(new ApiError('', undefined, 'network'), 'en', 'the connection was lost')).toBe(
      'Upload failed: the connection was lost',
    );
    expect(uploadErrorText(new Error('?'), 'zh-TW', '連線中斷')).toBe('上傳失敗：連線中斷');
  });

  it('recognises a removed file’s stopped upload', () => {
    expect(isAborted(new ApiError('', 'aborted', 'network', true))).toBe(true);
    expect(isAborted(new ApiError('', undefined, 'network'))).toBe(false);
  });
});
