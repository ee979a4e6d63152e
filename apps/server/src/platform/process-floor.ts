import { accessSync, constants } from 'node:fs';

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
