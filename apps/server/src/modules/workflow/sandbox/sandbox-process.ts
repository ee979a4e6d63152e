import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { findUnshare, NOBODY, othersCanRead, permissionFlag } from '../../../platform/process-floor.ts';

/**
 * How the sandbox process is started: the floor beneath the interpreters' own locks, so that even
 * an escape from an interpreter finds nothing (docs/workflow-sandbox.md, "The process floor"):
 *
 * - an empty environment: no secret of the server's is there to read;
 * - Node's permission model: it reads only its bundles and node_modules, writes nothing, starts no
 *   program and loads no native addon; from Node 25 it also opens no socket;
 * - started as root (Docker's default, CI), it runs as `nobody` in a network namespace of its own
 *   (util-linux `unshare`), so it cannot read the server's files or /proc/<pid>/environ, nor reach
 *   any address, on Node 20 too;
 * - a nice value of 10, so the server's own threads get a core first.
 *
 * Each way of starting is tried in order; one whose process does not come up (no `unshare`, no
 * right to make namespaces, an install the `nobody` user cannot read) gives way to the next, and
 * the server logs which layer is missing.
 */
export interface LaunchPlan {
  /** What the log says about this way of starting. */
  name: string;
  command: string;
  args: string[];
  /** The layers this way lacks, for the warning; empty for the full floor. */
  missing: string[];
}

const NICENESS = 10;

/** The node_modules folders an import from the entry's folder may resolve to (those that exist). */
function moduleFolders(entry: string): string[] {
  const candidates = createRequire(entry).resolve.paths('pyodide') ?? [];
  return candidates.filter((folder) => existsSync(folder));
}

/** The ways to start the sandbox process here, safest first. */
export function launchPlans(entry: string, argument: string): LaunchPlan[] {
  const readable = [path.dirname(entry), ...moduleFolders(entry)];
  const nodeArgs = [
    permissionFlag(),
    ...readable.map((folder) => `--allow-fs-read=${folder}`),
    '--allow-worker',
    // Node warns that the permission model is experimental (on 20) and that threads may be started.
    '--no-warnings',
    entry,
    argument,
  ];
  const direct: LaunchPlan = { name: 'permission model', command: process.execPath, args: nodeArgs, missing: [] };
  if (process.getuid?.() !== 0) return [direct];
  const plans: LaunchPlan[] = [];
  const nobodyCanRead = [process.execPath, entry, ...readable].every(othersCanRead);
  const unshare = findUnshare();
  const asNobody = ['--setgid', String(NOBODY), '--setuid', String(NOBODY)];
  if (nobodyCanRead && unshare) {
    plans.push({
      name: 'nobody, own network namespace, permission model',
      command: unshare,
      args: ['--net', ...asNobody, '--', process.execPath, ...nodeArgs],
      missing: [],
    });
  }
  if (nobodyCanRead && unshare) {
    plans.push({
      name: 'nobody, permission model',
      command: unshare,
      args: [...asNobody, '--', process.execPath, ...nodeArgs],
      missing: ['a network namespace'],
    });
  }
  plans.push({
    ...direct,
    name: 'root, permission model',
    missing: [
      nobodyCanRead
        ? 'an unprivileged user (util-linux unshare missing)'
        : 'an unprivileged user (the install is not readable by others)',
      'a network namespace',
    ],
  });
  return plans;
}

/** Starts the sandbox process with one plan: an empty environment and an IPC channel. */
export function startSandboxProcess(plan: LaunchPlan): ChildProcess {
  const child = spawn(plan.command, plan.args, {
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Its own folder, never the server's working directory (where ./data may be).
    cwd: '/',
  });
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, NICENESS);
    } catch {
      // not allowed here: the process still runs, at the server's priority
    }
  }
  return child;
}
