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

/**
 * The ways a secret appears once a node has sent it: as written, percent-encoded in a URL
 * (`encodeURIComponent`) and form-encoded (URLSearchParams: a query parameter, a form body). Masking
 * is an exact match, so `ab/c+d=` sent as a query parameter (`ab%2Fc%2Bd%3D`) needs its own form.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams([['', secret]]).toString().slice(1)]);
  return [...forms];
}

/** Adds a secret's forms to a list kept longest first, so that one secret inside another is masked whole. */
export function addSecret(secrets: string[], secret: string): void {
  if (secret === '') return;
  for (const form of secretForms(secret)) if (!secrets.includes(form)) secrets.push(form);
  secrets.sort((a, b) => b.length - a.length);
}

/** The secrets of a graph's environment, each in every form it may be sent in, longest first. */
export function secretsOf(environment: ReadonlyArray<{ type: string; value: string }>): string[] {
  const secrets: string[] = [];
  for (const variable of environment) if (variable.type === 'secret') addSecret(secrets, variable.value);
  return secrets;
}

/**
 * Streamed text, masked across chunk boundaries: a secret split over two chunks ("sk-ab", "cd12")
 * matches neither alone. The last `longest - 1` characters wait for the next chunk (or `flush`),
 * and the cut is moved back before any secret it would split, so nothing leaves before it can be
 * told apart from a secret's beginning.
 */
export class MaskedStream {
  private pending = '';

  constructor(
    private readonly secrets: readonly string[],
    private readonly send: (text: string) => void,
  ) {}

  push(text: string): void {
    this.pending += text;
    const hold = (this.secrets[0]?.length ?? 1) - 1;
    let cut = this.pending.length - hold;
    for (let moved = true; moved && cut > 0; ) {
      moved = false;
      for (const secret of this.secrets) {
        // Only occurrences starting before the cut can straddle it; each lies whole in `pending`.
        for (let at = this.pending.indexOf(secret); at !== -1 && at < cut; at = this.pending.indexOf(secret, at + 1)) {
          if (at + secret.length > cut) {
            cut = at;
            moved = true;
          }
        }
      }
    }
    if (cut <= 0) return;
    const ready = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    this.send(maskString(ready, this.secrets));
  }

  flush(): void {
    if (!this.pending) return;
    const rest = this.pending;
    this.pending = '';
    this.send(maskString(rest, this.secrets));
  }
}
