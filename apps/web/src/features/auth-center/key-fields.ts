import {
  apiKeyField,
  baseUrlField,
  ERRORS,
  isErrorKey,
  type Language,
  type ModelKey,
  type ModelPurpose,
  modelNameField,
  modelVersionField,
} from '@athena/contract';

/** The four text fields of a key, checked by the contract's own rules (none may be empty). */
const RULES = {
  model_name: modelNameField,
  version: modelVersionField,
  base_url: baseUrlField,
  api_key: apiKeyField,
} as const;

export type KeyFieldName = keyof typeof RULES;

export interface KeyFormValues {
  purpose: ModelPurpose;
  model_name: string;
  version: string;
  base_url: string;
  api_key: string;
}

/** The contract's upper bounds, enforced by the inputs so the "cannot be empty" message never shows for a long value. */
export const KEY_FIELD_MAX: Record<KeyFieldName, number> = {
  model_name: 100,
  version: 200,
  base_url: 500,
  api_key: 1000,
};

/**
 * The contract's message for a field value in the person's language, exactly what the server
 * would answer; null when the value passes.
 */
export function keyFieldError(field: KeyFieldName, value: string | undefined, language: Language): string | null {
  const result = RULES[field].safeParse(value ?? '');
  if (result.success) return null;
  const key = result.error.issues[0]?.message ?? '';
  return isErrorKey(key) ? ERRORS[key].msg[language] : ERRORS.BAD_REQUEST.msg[language].replace('{detail}', field);
}

/** Server answers that belong to one field, so the form can show them under it. */
const FIELD_OF_CODE = new Map<number, KeyFieldName>([
  [ERRORS.MODEL_NAME_REQUIRED.code, 'model_name'],
  [ERRORS.MODEL_VERSION_REQUIRED.code, 'version'],
  [ERRORS.BASE_URL_REQUIRED.code, 'base_url'],
  [ERRORS.BASE_URL_INVALID.code, 'base_url'],
  [ERRORS.ADDRESS_BLOCKED.code, 'base_url'],
  [ERRORS.API_KEY_REQUIRED.code, 'api_key'],
]);

export const fieldOfErrorCode = (code: unknown): KeyFieldName | undefined =>
  typeof code === 'number' ? FIELD_OF_CODE.get(code) : undefined;

/** The body of create / test_draft: the values as typed, trimmed (the server trims the same way). */
export const draftBody = (values: KeyFormValues) => ({
  purpose: values.purpose,
  model_name: values.model_name.trim(),
  version: values.version.trim(),
  base_url: values.base_url.trim(),
  api_key: values.api_key.trim(),
});

/**
 * The body of update. An empty key field keeps the stored key (the contract's "omit to keep"),
 * so it is left out rather than sent blank.
 */
export function updateBody(id: string, values: KeyFormValues) {
  const { api_key, ...rest } = draftBody(values);
  return { id, ...rest, ...(api_key ? { api_key } : {}) };
}

/**
 * Whether the form, with its key field left empty, still describes the saved key exactly; then
 * the saved key can be tested as it is. Trailing slashes do not count (the server strips them).
 */
export function sameAsSaved(values: KeyFormValues, saved: ModelKey): boolean {
  const body = draftBody(values);
  return (
    body.purpose === saved.purpose &&
    body.model_name === saved.model_name &&
    body.version === saved.version &&
    body.base_url.replace(/\/+$/, '') === saved.base_url
  );
}

/**
 * Whether an address points at this machine or a private network, which the server refuses
 * unless the operator set ALLOW_PRIVATE_MODEL_ENDPOINTS. A hint only: the server decides, on the
 * addresses DNS actually returns.
 */
export function looksPrivate(address: string): boolean {
  let host: string;
  try {
    host = new URL(address.trim()).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1') return true;
  if (/^(fc|fd)[0-9a-f]{2}:|^fe80:/.test(host)) return true;
  const octets = host.split('.').map(Number);
  if (octets.length !== 4 || octets.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return false;
  const [a, b] = octets;
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}
