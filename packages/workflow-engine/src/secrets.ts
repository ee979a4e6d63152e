// Secret environment variables are readable by nodes (an HTTP node's bearer token), but what a run
// reports — node inputs and outputs, streamed text, the summary — never shows them.

export const SECRET_MASK = '******';

/** Replaces every occurrence of a secret in every string of a value (deeply); other values are kept. */
export function maskSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return maskValue(value, secrets) as T;
}

function maskString(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (masked.includes(secret)) masked = masked.split(secret).join(SECRET_MASK);
  return masked;
}

function maskValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return maskString(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, secrets));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[maskString(key, secrets)] = maskValue(item, secrets);
    return out;
  }
  return value;
}

/** The secrets of a graph's environment, longest first so that one secret inside another is masked whole. */
export function secretsOf(environment: ReadonlyArray<{ type: string; value: string }>): string[] {
  return environment
    .filter((variable) => variable.type === 'secret' && variable.value !== '')
    .map((variable) => variable.value)
    .sort((a, b) => b.length - a.length);
}
