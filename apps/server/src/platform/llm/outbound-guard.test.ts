import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch, isBlockedError, isPublicAddress, refusedHost } from './outbound-guard.ts';

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
    ['127.0.0.1', false],
    ['0.0.0.0', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::a00:1', false],
    ['::808:808', true],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['not an address', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

/**
 * Two loopback servers stand in for the internet: 127.0.0.1 plays a public endpoint, 127.0.0.2
 * a private one (Linux routes all of 127/8 to loopback). The test's policy blocks only the second.
 */
describe('outbound fetch', () => {
  const PRIVATE = '127.0.0.2';
  let reachedPrivate = 0;
  let publicServer: Server;
  let privateServer: Server;
  let publicUrl: string;
  let privatePort: number;
  const listen = (server: Server, host: string) =>
    new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

  beforeAll(async () => {
    privateServer = createServer((_req, res) => {
      reachedPrivate += 1;
      res.end('secret');
    });
    privatePort = await listen(privateServer, PRIVATE);
    publicServer = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (target) res.writeHead(302, { location: target }).end();
      else res.end('public');
    });
    publicUrl = `http://127.0.0.1:${await listen(publicServer, '127.0.0.1')}`;
  });
  afterAll(() => {
    publicServer.close();
    privateServer.close();
  });

  const guarded = createOutboundFetch({
    allowPrivate: false,
    isAllowed: (ip) => ip !== PRIVATE,
    // A stand-in DNS: every *.test name answers the private address.
    lookup: (hostname, _options, callback) =>
      hostname.replace(/\.$/, '').endsWith('.test')
        ? callback(null, [{ address: PRIVATE, family: 4 }])
        : callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []),
  });
  const refused = async (url: string) => {
    const error = await guarded(url).then(
      () => null,
      (failure: unknown) => failure,
    );
    return isBlockedError(error);
  };

  it('reaches an allowed address and follows a redirect to another allowed one', async () => {
    expect(await (await guarded(`${publicUrl}/`)).text()).toBe('public');
    const hop = encodeURIComponent(`${publicUrl}/`);
    expect(await (await guarded(`${publicUrl}/?to=${hop}`)).text()).toBe('public');
  });

  it('refuses a blocked literal address before connecting', async () => {
    expect(await refused(`http://${PRIVATE}:${privatePort}/`)).toBe(true);
    expect(reachedPrivate).toBe(0);
  });

  it('refuses a redirect to a blocked address on the hop that would reach it', async () => {
    for (const target of [`http://${PRIVATE}:${privatePort}/`, `http://rebind.test:${privatePort}/`]) {
      expect(await refused(`${publicUrl}/?to=${encodeURIComponent(target)}`)).toBe(true);
    }
    expect(reachedPrivate).toBe(0);
  });

  it('refuses a name whose DNS answer is blocked, trailing dot or not', async () => {
    expect(await refused(`http://internal.test:${privatePort}/`)).toBe(true);
    expect(await refused(`http://internal.test.:${privatePort}/`)).toBe(true);
    expect(reachedPrivate).toBe(0);
  });

  it('refuses loopback in every spelling with the production rule', async () => {
    const production = createOutboundFetch({ allowPrivate: false });
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f.1',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '0.0.0.0',
    ]) {
      const error = await production(`http://${host}:${privatePort}/`).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isBlockedError(error), host).toBe(true);
    }
  });
});

describe('refusedHost, the check of a host when a URL is saved', () => {
  /** A stand-in for DNS: these names and nothing else. */
  const dns: Record<string, string[]> = {
    'intranet.example.com': ['93.184.216.34', '10.0.0.7'],
    'public.example.com': ['93.184.216.34'],
    'metadata.example.com': ['169.254.169.254'],
  };
  const lookup = (
    hostname: string,
    _options: { all: true },
    callback: (error: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void,
  ) => {
    const found = dns[hostname];
    if (!found) return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      found.map((address) => ({ address, family: 4 })),
    );
  };
  const refused = (host: string, allowPrivate = false) => refusedHost(host, { allowPrivate, lookup });

  it('refuses a name that resolves to a private or link-local address, naming both', async () => {
    expect(await refused('intranet.example.com')).toBe('intranet.example.com (10.0.0.7)');
    expect(await refused('metadata.example.com.')).toBe('metadata.example.com. (169.254.169.254)');
    expect(await refused('public.example.com')).toBeNull();
  });

  it('refuses localhost and this machine’s name before asking DNS, and literal private addresses', async () => {
    for (const host of ['localhost', 'LocalHost.', 'api.localhost', os.hostname(), '127.0.0.1', '[::1]', '10.1.2.3']) {
      expect(await refused(host), host).not.toBeNull();
    }
  });

  it('leaves a name DNS does not know to the connection’s check, and allows everything with the switch', async () => {
    expect(await refused('unknown.example.com')).toBeNull();
    expect(await refused('localhost', true)).toBeNull();
    expect(await refused('intranet.example.com', true)).toBeNull();
  });

  it('gives up on a slow DNS answer instead of holding the save', async () => {
    const started = Date.now();
    const never = () => {};
    expect(await refusedHost('slow.example.com', { allowPrivate: false, lookup: never, timeoutMs: 50 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
