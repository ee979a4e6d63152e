import type { EnvironmentVariable, ErrorKey, Selector } from '@athena/contract';
import { cut, list, str } from './values.ts';

/**
 * Something the person should check after an import: a catalogue key (its message in three
 * languages is in the contract's error catalogue), its parameters, and the node it is about.
 */
export interface ImportNote {
  key: ErrorKey;
  params: Record<string, string | number>;
  node_id: string | null;
}

const ID_RULE = /^[A-Za-z0-9_-]{1,64}$/;
/** Our selectors' own namespaces: a node with one of these ids would shadow them. */
const RESERVED_IDS = new Set(['sys', 'env']);
/** Dify's system variables whose name differs here; the others keep their name. */
const SYSTEM_NAMES: Record<string, string> = { workflow_run_id: 'run_id', app_id: 'workflow_id' };
const REFERENCE = /\{\{#([^#{}\s]{1,400})#\}\}/g;

/**
 * What the conversion knows about the whole file while it maps one node: our id for each of
 * Dify's, outputs that are named differently here, the environment names conversation variables
 * got, and the notes so far. Every selector and `{{#…#}}` reference goes through `selector` and
 * `text`, so a renamed node or output is renamed everywhere it is read.
 */
export class Conversion {
  readonly notes: ImportNote[] = [];
  private readonly ids = new Map<string, string>();
  private readonly taken = new Set<string>();
  private readonly outputNames = new Map<string, Map<string, string>>();
  private readonly envNames = new Map<string, string>();
  private readonly startIds = new Set<string>();
  /** Secrets taken out of nodes, as secret environment variables (`moveSecret`). */
  readonly secrets: EnvironmentVariable[] = [];
  private readonly envTaken = new Set<string>();
  private envRoom = 0;

  /** Our id for a Dify node id: the same when our rule allows it, else a derived one, unique. */
  claimId(difyId: string): string {
    const known = this.ids.get(difyId);
    if (known) return known;
    let id = ID_RULE.test(difyId) && !RESERVED_IDS.has(difyId) ? difyId : derivedId(difyId);
    for (let n = 2; this.taken.has(id); n++) id = `${cut(id, 58)}_${n}`;
    this.ids.set(difyId, id);
    this.taken.add(id);
    return id;
  }

  idOf(difyId: string): string | undefined {
    return this.ids.get(difyId);
  }

  renameOutput(difyId: string, from: string, to: string) {
    if (from === to) return;
    const names = this.outputNames.get(difyId) ?? new Map<string, string>();
    names.set(from, to);
    this.outputNames.set(difyId, names);
  }

  setEnvName(conversationName: string, envName: string) {
    this.envNames.set(conversationName, envName);
  }

  /** A start node: early chatflows read the system variables through it (`['<start>', 'sys.query']`). */
  markStart(difyId: string) {
    this.startIds.add(difyId);
  }

  /** The environment the file brought: its names are taken, and what is left of the limit is for secrets. */
  environmentIs(names: string[], limit: number) {
    for (const name of names) this.envTaken.add(name);
    this.envRoom = Math.max(0, limit - names.length);
  }

  /**
   * A literal secret found in a node (an API key in a header) as a new secret environment variable:
   * its value is then never shown again, exported or logged, and the node reads it as
   * `{{#env.NAME#}}`. Answers the variable's name, or null when the environment is full.
   */
  moveSecret(wanted: string, value: string): string | null {
    if (this.envRoom === 0) return null;
    const cleaned =
      wanted
        .toUpperCase()
        .replace(/[^A-Z0-9_]+/g, '_')
        .replace(/^_+|_+$/g, '') || 'SECRET';
    // An environment name starts with a letter or `_`; room is kept for a `_2` suffix.
    const stem = cut(/^[A-Z]/.test(cleaned) ? cleaned : `_${cleaned}`, 58);
    let name = stem;
    for (let n = 2; this.envTaken.has(name); n++) name = `${stem}_${n}`;
    this.envTaken.add(name);
    this.envRoom -= 1;
    this.secrets.push({ name, type: 'secret', value: cut(value, 10_000) });
    return name;
  }

  note(key: ErrorKey, params: Record<string, string | number> = {}, nodeId: string | null = null) {
    this.notes.push({ key, params, node_id: nodeId });
  }

  /** One of Dify's selectors in our terms, or null when it names nothing. */
  selector(raw: unknown): Selector | null {
    const parts = list(raw).map((part) => str(part));
    if (parts.length < 2 || parts.some((part) => part === '')) return null;
    const [head, name, ...rest] = parts;
    // `['<start>', 'sys.query']`, or `start.sys.query` in a reference: the system variable itself.
    const throughStart = [name, ...rest].join('.').split('.');
    if (this.startIds.has(head) && throughStart[0] === 'sys' && throughStart.length > 1)
      return this.selector(throughStart);
    let mapped: string[];
    if (head === 'sys') mapped = ['sys', SYSTEM_NAMES[name] ?? name, ...rest];
    else if (head === 'env') mapped = ['env', name, ...rest];
    else if (head === 'conversation') mapped = ['env', this.envNames.get(name) ?? name, ...rest];
    else {
      const id = this.ids.get(head) ?? (ID_RULE.test(head) ? head : derivedId(head));
      mapped = [id, this.outputNames.get(head)?.get(name) ?? name, ...rest];
    }
    return mapped.slice(0, 8).map((part) => cut(part, 128));
  }

  /** A text with `{{#node.output#}}` references, the references rewritten the way selectors are. */
  text(raw: unknown, max = 100_000): string {
    const rewritten = str(raw).replace(REFERENCE, (whole, inner: string) => {
      const parts = inner.split('.');
      // A hand-written id may hold a dot; the longest known id the reference starts with wins.
      let headLength = 1;
      for (let length = parts.length - 1; length > 1; length--) {
        if (this.ids.has(parts.slice(0, length).join('.'))) {
          headLength = length;
          break;
        }
      }
      const selector = this.selector([parts.slice(0, headLength).join('.'), ...parts.slice(headLength)]);
      return selector ? `{{#${selector.join('.')}#}}` : whole;
    });
    return cut(rewritten, max);
  }
}

/** A deterministic id our rule accepts, from one it does not (Dify allows any string). */
function derivedId(difyId: string): string {
  const cleaned = difyId.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return `n_${cut(cleaned, 50) || 'node'}`;
}
