import type { ModelPurpose } from '@athena/contract';

/**
 * Common OpenAI-compatible providers. A preset only fills the request address; the model name (the
 * provider's label in the locale files) and version are suggested as placeholders, because model
 * ids change too often to fill them in for the person.
 */
export interface ProviderPreset {
  id: 'qwen' | 'deepseek' | 'moonshot' | 'zhipu' | 'doubao' | 'openai' | 'ollama';
  baseUrl: string;
  /** Example model ids per purpose (the placeholder of "version"); chat is the fallback. */
  versions: Partial<Record<ModelPurpose, string>> & { chat: string };
  /** Runs on the operator's own machine: needs ALLOW_PRIVATE_MODEL_ENDPOINTS on the server. */
  local?: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'qwen',
    baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    versions: { chat: 'qwen-plus', embedding: 'text-embedding-v3' },
  },
  { id: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', versions: { chat: 'deepseek-chat' } },
  {
    id: 'moonshot',
    baseUrl: 'https://api.moonshot.cn/v1',
    versions: { chat: 'moonshot-v1-8k' },
  },
  {
    id: 'zhipu',
    baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    versions: { chat: 'glm-4-flash', embedding: 'embedding-3' },
  },
  {
    id: 'doubao',
    baseUrl: 'https://ark.cn-beijing.volces.com/api/v3',
    versions: { chat: 'doubao-1-5-pro-32k-250115' },
  },
  {
    id: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    versions: { chat: 'gpt-4o-mini', embedding: 'text-embedding-3-small' },
  },
  {
    id: 'ollama',
    baseUrl: 'http://localhost:11434/v1',
    versions: { chat: 'qwen2.5:7b', embedding: 'nomic-embed-text' },
    local: true,
  },
];

/** The preset whose address this is (trailing slashes aside), if any. */
export const presetByUrl = (address: string) => {
  const normalised = address.trim().replace(/\/+$/, '');
  return PROVIDER_PRESETS.find((preset) => preset.baseUrl === normalised);
};

/** The example model id a preset suggests for a purpose. */
export const versionHint = (preset: ProviderPreset, purpose: ModelPurpose) =>
  preset.versions[purpose] ?? preset.versions.chat;
