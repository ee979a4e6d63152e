import { spawn } from 'node:child_process';
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
 *   is handed to it open (descriptor 3): the folders it lies in stay closed to `nobody`.
 *
 * Above this floor the default tools are WebAssembly under Node's permission model
 * (media-tools.ts); a configured native ffmpeg gets the floor alone.
 *
 * Each way is checked once per tool (it runs `-version` that way); one that cannot start here (no
 * `unshare`, no right to make namespaces, a tool `nobody` cannot run) gives way to the next and
 * the log names the missing layer.
 */

/** How to start one tool: the program and the arguments before the tool's own. */
export interface ToolCommand {
  command: string;
  args: string[];
  /** Where the tool reads an input handed to it as descriptor 3. */
  handedInput: string;
  /** It can only read a handed input (the WebAssembly runner reads nothing by path). */
  alwaysHand: boolean;
}

export interface ToolLaunch {
  name: string;
  /** The command and the arguments before the tool's own. */
  prefix: string[];
  /** Whether the tool runs as another user, and so needs its input handed over open. */
  handsInput: boolean;
  missing: string[];
}

/** The ways to start `tool` here, safest first. */
function toolLaunches(tool: ToolCommand): ToolLaunch[] {
  const command = [tool.command, ...tool.args];
  const plain: ToolLaunch = { name: 'server user', prefix: command, handsInput: tool.alwaysHand, missing: [] };
  if (process.getuid?.() !== 0) return [plain];
  const unshare = findUnshare();
  const asNobody = ['--setgid', String(NOBODY), '--setuid', String(NOBODY)];
  const launches: ToolLaunch[] = [];
  if (unshare) {
    launches.push(
      {
        name: 'nobody, own network namespace',
        prefix: [unshare, '--net', ...asNobody, '--', ...command],
        handsInput: true,
        missing: [],
      },
      {
        name: 'nobody',
        prefix: [unshare, ...asNobody, '--', ...command],
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

const chosen = new Map<string, Promise<ToolLaunch>>();

/** Whether `launch` starts here: it runs `<tool> -version`, without blocking the server meanwhile. */
function works(launch: ToolLaunch): Promise<boolean> {
  const [command, ...args] = launch.prefix;
  if (!command) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command, [...args, '-version'], { env: {}, cwd: '/', stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/**
 * The safest way that works here for `tool`, found once: each candidate runs `<tool> -version`
 * (the WebAssembly build takes about half a second to load, so this must not block).
 * `onMissing` hears of the layers a weaker way lacks (logged as a warning).
 */
export function launchFor(tool: ToolCommand, onMissing: (launch: ToolLaunch) => void = () => {}): Promise<ToolLaunch> {
  const key = JSON.stringify([tool.command, ...tool.args]);
  let found = chosen.get(key);
  if (!found) {
    found = (async () => {
      const launches = toolLaunches(tool);
      let launch = launches[launches.length - 1];
      for (const candidate of launches) {
        if (!(await works(candidate))) continue;
        launch = candidate;
        break;
      }
      if (!launch) throw new Error('media: no way to start a tool');
      if (launch.missing.length > 0) onMissing(launch);
      return launch;
    })();
    chosen.set(key, found);
  }
  return found;
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
