import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { newBatchId, uploadErrorText } from './upload-transfer.ts';

describe('knowledge uploads', () => {
  it('makes a fresh batch id for every upload batch', () => {
    const batch = newBatchId();
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
});
