import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The sandbox process and its threads always run bundled: the process runs under Node's permission
 * model, where a TypeScript loader (which reads files beside the ones it loads and starts threads
 * of its own) cannot work. The built server carries the bundles in apps/server/dist
 * (scripts/build-server.mjs); run from source (tests, benchmarks, `npm run dev`), they are built here
 * on first use into apps/server/.sandbox-build/<hash of the bundles>/, once per content.
 */
export const SANDBOX_BUNDLES = {
  'workflow-sandbox-host': 'sandbox-host.ts',
  'workflow-quickjs.worker': 'quickjs.worker.ts',
  'workflow-python.worker': 'python.worker.ts',
} as const;

const FROM_SOURCE = import.meta.url.endsWith('.ts');

let built: Promise<string> | null = null;

/** The path of the sandbox process's entry, with its threads' bundles beside it. */
export function sandboxHostEntry(): Promise<string> {
  if (!FROM_SOURCE) return Promise.resolve(fileURLToPath(new URL('./workflow-sandbox-host.mjs', import.meta.url)));
  built ??= buildFromSource();
  return built;
}

async function buildFromSource(): Promise<string> {
  const { build } = await import('esbuild');
  const here = fileURLToPath(new URL('.', import.meta.url));
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(SANDBOX_BUNDLES).map(([name, file]) => [name, `${here}${file}`])),
    outdir: '/', // in memory only (write: false); the files land in the hashed folder below
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = fileURLToPath(new URL(`../../../../.sandbox-build/${hash.digest('hex').slice(0, 16)}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  for (const file of result.outputFiles) {
    const target = `${dir}${file.path.slice(1)}`;
    if (existsSync(target)) continue;
    // Write-then-rename: test files starting at once never load a half-written bundle.
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, target);
  }
  return `${dir}workflow-sandbox-host.mjs`;
}
