import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What the floors beneath code strangers wrote (code nodes, media decoders) are built from when
 * the server runs as root: the `nobody` user and util-linux `unshare`, which starts a program as
 * that user in a network namespace of its own (no address reachable, loopback included).
 */
export const NOBODY = 65_534;

/** util-linux `unshare`, or null where it is not installed. */
export function findUnshare(): string | null {
  for (const candidate of ['/usr/bin/unshare', '/bin/unshare']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Node's permission-model flag: `--permission` from 22.13 and 23.5, the experimental spelling before. */
export function permissionFlag(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)
    ? '--permission'
    : '--experimental-permission';
}

/** Whether `nobody` could read `target`: every folder above it searchable, and it readable, by others. */
export function othersCanRead(target: string): boolean {
  let current = path.resolve(target);
  const mode = statSync(current).mode;
  if ((mode & 0o004) === 0) return false;
  while (current !== path.dirname(current)) {
    current = path.dirname(current);
    if ((statSync(current).mode & 0o001) === 0) return false;
  }
  return true;
}
