import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import type { buildConnector, fetch as undiciFetch } from 'undici';

/** Raised when a user-supplied URL points at a private, loopback or link-local address. */
export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`outbound requests to ${address} are blocked`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * Only ordinary public unicast addresses are reachable. An IPv6 address that carries an IPv4 one
 * (IPv4-mapped `::ffff:a.b.c.d`, or the old IPv4-compatible `::a.b.c.d`, however it is written)
 * is judged as that IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv6') {
    const bytes = parsed.toByteArray();
    if (bytes.slice(0, 12).every((byte) => byte === 0)) return isPublicAddress(bytes.slice(12).join('.'));
  }
  return parsed.range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface OutboundOptions {
  /** Let requests reach private and loopback addresses (a local Ollama or vLLM). */
  allowPrivate: boolean;
  /** Which addresses may be reached; the public-unicast rule above unless a test narrows it. */
  isAllowed?: (ip: string) => boolean;
  /** Name resolution; the system's unless a test stands in for DNS. */
  lookup?: Lookup;
}

/**
 * The one fetch for user-supplied URLs (model endpoints now; HTTP workflow nodes and webhooks
 * later). The check runs on every connection the fetch makes, redirects included:
 *  - a host name is checked on the addresses DNS returned, and the socket connects to exactly
 *    those, so a name re-pointed between a check and the connection cannot slip through;
 *  - a literal address (which never reaches DNS) is checked as the connection opens, in whatever
 *    form the URL wrote it (the URL parser turns decimal, octal and hex IPv4 into dotted form).
 */
export function createOutboundFetch(opts: OutboundOptions): typeof fetch {
  const isAllowed = (ip: string) => opts.allowPrivate || (opts.isAllowed ?? isPublicAddress)(ip);
  const resolve = opts.lookup ?? (dnsLookup as unknown as Lookup);
  const guarded = ({ Agent, buildConnector, fetch: send }: typeof import('undici')) => {
    const connect = buildConnector({
      lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback) {
        resolve(hostname, { all: true }, (error, addresses) => {
          if (error) return callback(error, []);
          const blocked = addresses.find((entry) => !isAllowed(entry.address));
          if (blocked) return callback(new BlockedAddressError(blocked.address), []);
          if (addresses.length === 0)
            return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
          if (options.all) return callback(null, addresses);
          return callback(null, addresses[0].address, addresses[0].family);
        });
      },
    } as buildConnector.BuildOptions);
    const agent = new Agent({
      connect(options, callback) {
        const host = options.hostname.replace(/^\[|\]$/g, '');
        if (ipaddr.isValid(host) && !isAllowed(host)) return callback(new BlockedAddressError(host), null);
        return connect(options, callback);
      },
    });
    return { agent, send };
  };
  // undici (~0.2 s and a few MB to load) comes with the first outbound call, not at start-up.
  let loading: Promise<ReturnType<typeof guarded>> | undefined;
  const undici = () => (loading ??= import('undici').then(guarded));

  return (async (input: string | URL | Request, init?: RequestInit) => {
    const { agent, send } = await undici();
    return send(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    });
  }) as unknown as typeof fetch;
}

/** True when `error` (or anything in its cause chain) is a BlockedAddressError. */
export function isBlockedError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof BlockedAddressError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Names that mean this machine whatever DNS says: `localhost` and its subdomains, and its own name. */
function namesThisMachine(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const own = os.hostname().toLowerCase();
  return name === own || name === own.split('.')[0];
}

/** How long a save waits for DNS before leaving the question to the connection. */
const SAVE_LOOKUP_MS = 3_000;

/**
 * The check of a URL's host when a person saves it, so that a host the guard would refuse on every
 * connection is refused now, where they can fix it, rather than on its first use. Refused: a
 * literal private, loopback or link-local address; `localhost` (and `*.localhost`) and this
 * machine's own host name; a name that resolves to such an address now. Answers the refused host
 * (a name with the address it resolved to), or null. A name that does not resolve in time is
 * accepted: the guard still checks every connection, so a name re-pointed later is refused then.
 */
export async function refusedHost(
  hostname: string,
  opts: OutboundOptions & { timeoutMs?: number },
): Promise<string | null> {
  if (opts.allowPrivate) return null;
  const isAllowed = opts.isAllowed ?? isPublicAddress;
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return isAllowed(host) ? null : host;
  // A trailing dot names the same host (`localhost.`).
  const name = host.toLowerCase().replace(/\.$/, '');
  if (namesThisMachine(name)) return host;
  const resolve = opts.lookup ?? (dnsLookup as unknown as Lookup);
  const addresses = await new Promise<LookupAddress[]>((done) => {
    const timer = setTimeout(() => done([]), opts.timeoutMs ?? SAVE_LOOKUP_MS);
    resolve(name, { all: true }, (error, found) => {
      clearTimeout(timer);
      done(error ? [] : found);
    });
  });
  const blocked = addresses.find((entry) => !isAllowed(entry.address));
  return blocked ? `${host} (${blocked.address})` : null;
}
