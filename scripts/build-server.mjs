// Bundles the server's own code (and the contract) into apps/server/dist/main.mjs, and the worker
// threads that read uploaded files beside it (knowledge-files.worker.mjs, see
// platform/file-workers); packages from node_modules stay external. Plain `node` then runs it: no
// TypeScript loader thread at run time.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}apps/server/dist`;
/** What the last build read (every input file's size and mtime) and the settings it ran with. */
const stampFile = `${outdir}/build-inputs.json`;

/**
 * Files that change a build without being one of its inputs: this script, the manifests (the
 * externals, the workspace packages' entry points), the lock file and the TypeScript settings.
 */
function settingsFiles() {
  const dirs = ['apps/server', ...readdirSync(`${root}packages`).map((name) => `packages/${name}`)];
  const files = ['scripts/build-server.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
  for (const dir of dirs) files.push(`${dir}/package.json`, `${dir}/tsconfig.json`);
  return files.filter((file) => existsSync(`${root}${file}`));
}

const fingerprint = (file) => {
  const stat = statSync(`${root}${file}`);
  return `${stat.size}:${stat.mtimeMs}`;
};

function settingsKey(options) {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const file of settingsFiles()) hash.update(`${file}=${fingerprint(file)}\n`);
  return hash.digest('hex');
}

/** True when the bundles on disk were built from exactly the files and settings there are now. */
function upToDate(key) {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (stamp.key !== key) return false;
    if (!stamp.outputs.every((file) => existsSync(`${root}${file}`))) return false;
    return Object.entries(stamp.inputs).every(([file, print]) => fingerprint(file) === print);
  } catch {
    return false;
  }
}

export async function buildServer() {
  // Workspace packages are bundled; what they depend on stays external like the server's own deps.
  const manifests = ['apps/server', 'packages/knowledge-core'].map((dir) =>
    JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')),
  );
  const external = manifests
    .flatMap((pkg) => Object.keys(pkg.dependencies ?? {}))
    .filter((name) => !name.startsWith('@athena/'));
  const options = {
    entryPoints: {
      main: `${root}apps/server/src/main.ts`,
      'knowledge-files.worker': `${root}apps/server/src/modules/knowledge/knowledge-files.worker.ts`,
      // The code and template nodes' sandbox process and its threads (modules/workflow/sandbox).
      'workflow-sandbox-host': `${root}apps/server/src/modules/workflow/sandbox/sandbox-host.ts`,
      'workflow-quickjs.worker': `${root}apps/server/src/modules/workflow/sandbox/quickjs.worker.ts`,
      'workflow-python.worker': `${root}apps/server/src/modules/workflow/sandbox/python.worker.ts`,
      'dify-files.worker': `${root}apps/server/src/modules/workflow/dify/dify-files.worker.ts`,
      'chat-voice.worker': `${root}apps/server/src/modules/chat-history/voice.worker.ts`,
      // The embedded database's thread (platform/db/embedded-engine.ts).
      'embedded-engine.worker': `${root}apps/server/src/platform/db/embedded-engine.worker.mjs`,
      // ffmpeg in WebAssembly, run as a process of its own (modules/media/media-tools.ts).
      'ffmpeg-wasm.runner': `${root}apps/server/src/modules/media/ffmpeg-wasm.runner.mjs`,
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    logLevel: 'warning',
    write: false,
    absWorkingDir: root,
    metafile: true,
  };
  // Bundling took ~0.9 s of every start (seven entry points with their source maps); a start with
  // nothing changed since the last build keeps its bundles (docs/benchmarks.md, "Start-up").
  const key = settingsKey(options);
  if (upToDate(key)) return;
  const { build } = await import('esbuild');
  const result = await build(options);
  // Write-then-rename: several processes started from one checkout never see a half-written file.
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((file) => [file, fingerprint(file)]));
  const outputs = result.outputFiles.map((file) => path.relative(root, file.path));
  const temporary = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ key, inputs, outputs }));
  renameSync(temporary, stampFile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
