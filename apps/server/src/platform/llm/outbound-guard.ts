import { type LookupAddress, lookup } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/** Raised when a user-supplied URL points at a private, loopback or link-local address. */
export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`outbound requests to ${address} are blocked`);
    this.name = 'BlockedAddressError';
  }
}

/** Only ordinary public unicast addresses are reachable; IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The one fetch for user-supplied URLs (model endpoints now; HTTP workflow nodes and webhooks
 * later). The check runs when the socket connects, on the addresses DNS actually returned, so a
 * name that resolves to a private address (or is re-pointed after a first check) is still refused.
 */
export function createOutboundFetch(opts: { allowPrivate: boolean }): typeof fetch {
  const agent = new Agent({
    connect: {
      lookup(hostname: string, options: { all?: boolean }, callback: LookupCallback) {
        lookup(hostname, { all: true }, (error, addresses) => {
          if (error) return callback(error, []);
          const blocked = opts.allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
          if (blocked) return callback(new BlockedAddressError(blocked.address), []);
          if (options.all) return callback(null, addresses);
          return callback(null, addresses[0].address, addresses[0].family);
        });
      },
    },
  });

  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    // Literal IPs never reach the DNS lookup above, so they are checked here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw new BlockedAddressError(host);
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
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
