import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../testing/free-port.ts';

/**
 * A throwaway PostgreSQL server from Debian's packages (scripts/ensure-postgres.sh installs them):
 * a cluster in a directory of its own on a free loopback port, tuned for tests (no fsync), removed on
 * stop. PostgreSQL refuses to run as root, so root runs it as the `postgres` user the package made.
 */
export interface PostgresServer {
  /** A superuser URL to the `postgres` database (trust authentication, loopback only). */
  adminUrl: string;
  version: string;
  stop(): Promise<void>;
}

const SUPERUSER = 'athena';

/** The newest PostgreSQL 15+ under /usr/lib/postgresql, or the directory PG_BIN names. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((version) => version >= 15 && existsSync(path.join(root, String(version), 'bin/initdb')))
        .sort((a, b) => b - a)
    : [];
  if (versions.length === 0) {
    throw new Error('PostgreSQL 15 or newer is not installed: run scripts/ensure-postgres.sh (or set PG_BIN)');
  }
  return path.join(root, String(versions[0]), 'bin');
}

/**
 * Where root's clusters go: the `postgres` user runs them and must be able to walk down to them, so
 * not the temp directory, which may be private (`TMPDIR=/tmp/priv`, mode 700, as CI runners and
 * sandboxes set it). The first of the shared temp directories that anyone may pass through.
 */
const SHARED_TEMP_DIRS = ['/tmp', '/var/tmp'];

function sharedTempDir(): string {
  for (const dir of SHARED_TEMP_DIRS) {
    try {
      const stat = statSync(dir);
      if (stat.isDirectory() && (stat.mode & 0o001) !== 0) return dir;
    } catch {
      // not there: the next one
    }
  }
  throw new Error(`none of ${SHARED_TEMP_DIRS.join(', ')} is a directory the postgres user may pass through`);
}

/** The `postgres` user the package made, which runs root's clusters. */
function postgresUser() {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' })));
  return { uid, gid };
}

/**
 * The cluster's own directory. Run by another user, it is made under a shared temp directory
 * (mode 700, owned by `postgres`) whatever TMPDIR says; run as oneself, under the temp directory.
 */
function clusterDir(owner: { uid: number; gid: number } | null): string {
  if (!owner) return mkdtempSync(path.join(os.tmpdir(), 'athena-pg-'));
  const dir = mkdtempSync(path.join(sharedTempDir(), 'athena-pg-'));
  chownSync(dir, owner.uid, owner.gid);
  return dir;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = clusterDir(asRoot ? postgresUser() : null);
  const dataDir = path.join(dir, 'data');
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];

  const [initdb, initdbArgs] = command('initdb', [
    '-D',
    dataDir,
    '-U',
    SUPERUSER,
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  try {
    execFileSync(initdb, initdbArgs, { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    // initdb says why on stderr; execFileSync's error carries it only as a buffer.
    const why = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    throw new Error(`initdb failed in ${dataDir}${why ? `: ${why}` : ''}`, { cause: error });
  }

  const port = await freePort();
  const [postgres, postgresArgs] = command('postgres', [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    // A test cluster: losing it in a power cut costs nothing, waiting for the disk costs seconds.
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ]);
  const child: ChildProcess = spawn(postgres, postgresArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  let version = '';
  for (;;) {
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      version = (await client.query<{ server_version: string }>('show server_version')).rows[0].server_version;
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        await exited;
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start (${(error as Error).message}):\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }

  return {
    adminUrl,
    version,
    async stop() {
      // The postmaster's pid (first line of postmaster.pid), not runuser's: SIGQUIT is an immediate
      // shutdown, which is all a cluster about to be deleted needs.
      const pidFile = path.join(dataDir, 'postmaster.pid');
      if (child.exitCode === null && existsSync(pidFile)) {
        process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
