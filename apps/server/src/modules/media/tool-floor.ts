import { spawnSync } from 'node:child_process';
import fsp, { type FileHandle } from 'node:fs/promises';
import { findUnshare, NOBODY } from '../../platform/process-floor.ts';

/**
 * The floor beneath ffprobe and ffmpeg's own limits (docs/media.md, "Hostile files"): they parse
 * files strangers uploaded with a decoder nobody audits, so a bug in it must find nothing.
 *
 * - an empty environment: no secret of the server's is there to read;
 * - started as root (Docker's default, CI): as `nobody` in a network namespace of its own
 *   (util-linux `unshare`, as the code-node sandbox), so it cannot read the server's files,
 *   /proc/<pid>/environ or another team's media, nor reach any address. The one file it works on
 *   is handed to it open (descriptor 3) and read through /proc/self/fd/3: the folders it lies in
 *   stay closed to `nobody`.
 *
 * Each way is checked once per binary (it runs `-version` that way); one that cannot start here (no
 * `unshare`, no right to make namespaces, a binary `nobody` cannot run) gives way to the next and
 * the log names the missing layer.
 */
export interface ToolLaunch {
  name: string;
  /** The command and the arguments before the tool's own. */
  prefix: string[];
  /** Whether the tool runs as another user, and so needs its input handed over open. */
  handsInput: boolean;
  missing: string[];
}

/** Where a tool started with an open input reads it: the descriptor after stdin, stdout and stderr. */
export const HANDED_INPUT = '/proc/self/fd/3';

/** The ways to start `binary` here, safest first. */
function toolLaunches(binary: string): ToolLaunch[] {
  const plain: ToolLaunch = { name: 'server user', prefix: [binary], handsInput: false, missing: [] };
  if (process.getuid?.() !== 0) return [plain];
  const unshare = findUnshare();
  const asNobody = ['--setgid', String(NOBODY), '--setuid', String(NOBODY)];
  const launches: ToolLaunch[] = [];
  if (unshare) {
    launches.push(
      {
        name: 'nobody, own network namespace',
        prefix: [unshare, '--net', ...asNobody, '--', binary],
        handsInput: true,
        missing: [],
      },
      {
        name: 'nobody',
        prefix: [unshare, ...asNobody, '--', binary],
        handsInput: true,
        missing: ['a network namespace'],
      },
    );
  }
  launches.push({
    ...plain,
    name: 'root',
    missing: ['an unprivileged user', 'a network namespace'],
  });
  return launches;
}

const chosen = new Map<string, ToolLaunch>();

/**
 * The safest way that works here for `binary`, found once: each candidate runs `<binary> -version`.
 * `onMissing` hears of the layers a weaker way lacks (logged as a warning).
 */
export function launchFor(binary: string, onMissing: (launch: ToolLaunch) => void = () => {}): ToolLaunch {
  const known = chosen.get(binary);
  if (known) return known;
  const launches = toolLaunches(binary);
  const works = (launch: ToolLaunch) => {
    const [command = binary, ...args] = launch.prefix;
    const result = spawnSync(command, [...args, '-version'], { env: {}, cwd: '/', stdio: 'ignore', timeout: 10_000 });
    return result.status === 0;
  };
  const launch = launches.find(works) ?? launches[launches.length - 1] ?? launches[0];
  if (!launch) throw new Error('media: no way to start a tool');
  if (launch.missing.length > 0) onMissing(launch);
  chosen.set(binary, launch);
  return launch;
}

/**
 * Opens `file` to hand to a tool that runs as `nobody`: readable by others on the file itself (a
 * stored file is 0640; the folders above it stay 0750, so only the open descriptor leads to it).
 */
export async function handOver(file: string): Promise<FileHandle> {
  const handle = await fsp.open(file, 'r');
  try {
    const { mode } = await handle.stat();
    if ((mode & 0o004) === 0) await handle.chmod((mode & 0o777) | 0o004);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
