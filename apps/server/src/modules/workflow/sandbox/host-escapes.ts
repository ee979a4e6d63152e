import { createRequire, syncBuiltinESMExports } from 'node:module';

/**
 * Imported first by the sandbox process and by each of its threads, before any interpreter loads:
 * Node's ways out of the process (starting programs, sockets, name lookups, native addons) are
 * replaced by functions that refuse. Interpreters capture such modules when they load (Pyodide's
 * system() kept a `require` of child_process that removing `globalThis.require` later did not
 * reach), so they must be closed before, in the objects every `require` and `import` hands out.
 * This is one layer: beneath it the process runs under Node's permission model, with an empty
 * environment, and when started as root as an unprivileged user in a network namespace of its
 * own (sandbox-process.ts).
 */
/**
 * The functions that start programs, open or accept connections, send datagrams or look up names.
 * Classes stay (Node's own stdio and IPC build sockets from them); their connect and listen go.
 */
const CLOSED: Record<string, { functions: string[]; prototypes?: Record<string, string[]> }> = {
  child_process: {
    functions: ['exec', 'execFile', 'execFileSync', 'execSync', 'fork', 'spawn', 'spawnSync'],
  },
  cluster: { functions: ['fork', 'setupPrimary', 'setupMaster'] },
  net: {
    functions: ['connect', 'createConnection', 'createServer'],
    prototypes: { Socket: ['connect'], Server: ['listen'] },
  },
  tls: { functions: ['connect', 'createServer'] },
  dgram: { functions: ['createSocket'], prototypes: { Socket: ['bind', 'send', 'connect'] } },
  dns: { functions: ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse'] },
  http: { functions: ['request', 'get', 'createServer'] },
  https: { functions: ['request', 'get', 'createServer'] },
  http2: { functions: ['connect', 'createServer', 'createSecureServer'] },
};

function refusing(what: string) {
  return () => {
    throw new Error(`${what} is not available in the sandbox`);
  };
}

function replace(target: object, key: string, what: string) {
  Object.defineProperty(target, key, { value: refusing(what), writable: false, configurable: false });
}

export function closeHostEscapes() {
  const require = createRequire(import.meta.url);
  for (const [name, { functions, prototypes = {} }] of Object.entries(CLOSED)) {
    const exports = require(`node:${name}`) as Record<string, { prototype: object }>;
    for (const key of functions) replace(exports, key, `${name}.${key}`);
    for (const [className, methods] of Object.entries(prototypes)) {
      const owner = exports[className];
      if (owner) for (const key of methods) replace(owner.prototype, key, `${name}.${className}.${key}`);
    }
  }
  const dnsPromises = require('node:dns/promises') as Record<string, unknown>;
  for (const key of Object.keys(dnsPromises)) {
    if (typeof dnsPromises[key] === 'function' && key !== 'Resolver') replace(dnsPromises, key, `dns.promises.${key}`);
  }
  replace(process, 'dlopen', 'process.dlopen');
  // The thread's copy of the environment would hold the server's secrets; the process is started
  // with an empty one, and this clears it again where a thread was given a copy.
  for (const name of Object.keys(process.env)) delete process.env[name];
  syncBuiltinESMExports();
}

closeHostEscapes();
