import { baseUrlField, ERRORS, type ModelKey } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  draftBody,
  fieldOfErrorCode,
  KEY_FIELD_MAX,
  type KeyFormValues,
  keyFieldError,
  looksPrivate,
  sameAsSaved,
  updateBody,
} from './key-fields.ts';
import { PROVIDER_PRESETS, presetByUrl, versionHint } from './presets.ts';

const values: KeyFormValues = {
  purpose: 'chat',
  model_name: ' 通义千问 ',
  version: 'qwen-plus',
  base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1/',
  api_key: '',
};

const saved: ModelKey = {
  id: 'k1',
  model_name: '通义千问',
  version: 'qwen-plus',
  base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  api_key_masked: 'sk-…abcd',
  purpose: 'chat',
  is_default: true,
  created_by: { id: 'u1', nickname: 'User 0000' },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_test: null,
};

describe('keyFieldError: the contract rules with the contract messages', () => {
  it.each([
    ['model_name', '', 'zh-CN', '模型名称不能为空。'],
    ['model_name', '   ', 'en', 'Model name cannot be empty.'],
    ['version', undefined, 'zh-TW', '模型版本不能為空。'],
    ['base_url', '', 'en', 'Request address cannot be empty.'],
    ['base_url', 'dashscope.aliyuncs.com', 'zh-CN', '请求地址必须是 http:// 或 https:// 开头的有效网址。'],
    ['base_url', 'ftp://example.com/v1', 'en', 'The request address must be a valid http:// or https:// URL.'],
    [
      'base_url',
      'https://user:pw@example.com/v1',
      'en',
      'The request address must be a valid http:// or https:// URL.',
    ],
    ['api_key', ' ', 'zh-CN', '密钥不能为空。'],
  ] as const)('%s %j in %s → %s', (field, value, language, message) => {
    expect(keyFieldError(field, value, language)).toBe(message);
  });

  it('accepts good values, including at the length limits the inputs enforce', () => {
    expect(keyFieldError('model_name', 'm'.repeat(KEY_FIELD_MAX.model_name), 'en')).toBeNull();
    expect(keyFieldError('version', 'v'.repeat(KEY_FIELD_MAX.version), 'en')).toBeNull();
    expect(keyFieldError('api_key', 'k'.repeat(KEY_FIELD_MAX.api_key), 'en')).toBeNull();
    expect(keyFieldError('base_url', 'http://localhost:11434/v1', 'en')).toBeNull();
  });
});

describe('request bodies', () => {
  it('trims the values for create and test_draft', () => {
    expect(draftBody({ ...values, api_key: ' sk-1 ' })).toEqual({
      purpose: 'chat',
      model_name: '通义千问',
      version: 'qwen-plus',
      base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1/',
      api_key: 'sk-1',
    });
  });

  it('leaves an empty key out of an update, so the stored key is kept', () => {
    expect(updateBody('k1', values)).not.toHaveProperty('api_key');
    expect(updateBody('k1', { ...values, api_key: '  ' })).not.toHaveProperty('api_key');
    expect(updateBody('k1', { ...values, api_key: 'sk-new' })).toMatchObject({ id: 'k1', api_key: 'sk-new' });
  });

  it('knows when the form still describes the saved key (trailing slash and spaces do not count)', () => {
    expect(sameAsSaved(values, saved)).toBe(true);
    expect(sameAsSaved({ ...values, version: 'qwen-max' }, saved)).toBe(false);
    expect(sameAsSaved({ ...values, purpose: 'embedding' }, saved)).toBe(false);
    expect(sameAsSaved({ ...values, base_url: 'https://api.deepseek.com/v1' }, saved)).toBe(false);
  });
});

describe('fieldOfErrorCode', () => {
  it('puts the server’s field errors under their fields and nothing else', () => {
    expect(fieldOfErrorCode(ERRORS.BASE_URL_INVALID.code)).toBe('base_url');
    expect(fieldOfErrorCode(ERRORS.API_KEY_REQUIRED.code)).toBe('api_key');
    expect(fieldOfErrorCode(ERRORS.MODEL_VERSION_REQUIRED.code)).toBe('version');
    expect(fieldOfErrorCode(ERRORS.FORBIDDEN.code)).toBeUndefined();
    expect(fieldOfErrorCode(undefined)).toBeUndefined();
  });
});

describe('looksPrivate', () => {
  it.each([
    'http://localhost:11434/v1',
    'http://127.0.0.1:8000/v1',
    'http://10.0.0.5/v1',
    'http://172.20.1.1/v1',
    'http://192.168.1.10:11434/v1',
    'http://169.254.169.254/latest',
    'http://[::1]:8000/v1',
    'http://gpu-box.local/v1',
  ])('%s is local or private', (address) => expect(looksPrivate(address)).toBe(true));

  it.each(['https://api.deepseek.com/v1', 'http://172.32.0.1/v1', 'http://8.8.8.8/v1', 'not a url', ''])(
    '%s is not',
    (address) => expect(looksPrivate(address)).toBe(false),
  );
});

describe('provider presets', () => {
  it('are valid request addresses, and only Ollama is local', () => {
    for (const preset of PROVIDER_PRESETS) {
      expect(baseUrlField.safeParse(preset.baseUrl).success).toBe(true);
      expect(looksPrivate(preset.baseUrl)).toBe(preset.local === true);
    }
    expect(PROVIDER_PRESETS.map((preset) => preset.id)).toEqual([
      'qwen',
      'deepseek',
      'moonshot',
      'zhipu',
      'doubao',
      'openai',
      'ollama',
    ]);
  });

  it('are recognised by their address, so typed addresses get the same hints', () => {
    expect(presetByUrl(' https://api.deepseek.com/v1/ ')?.id).toBe('deepseek');
    expect(presetByUrl('https://api.deepseek.com')).toBeUndefined();
    const qwen = presetByUrl('https://dashscope.aliyuncs.com/compatible-mode/v1')!;
    expect(versionHint(qwen, 'embedding')).toBe('text-embedding-v3');
    expect(versionHint(qwen, 'rerank')).toBe('qwen-plus');
  });
});
