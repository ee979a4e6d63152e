// Bundles the server's own code (and the contract) into apps/server/dist/main.mjs, and the worker
// threads that read uploaded files beside it (knowledge-files.worker.mjs, see
// platform/file-workers); packages from node_modules stay external. Plain `node` then runs it: no
// TypeScript loader thread at run time.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildServer() {
  // Workspace packages are bundled; what they depend on stays external like the server's own deps.
  const manifests = ['apps/server', 'packages/knowledge-core'].map((dir) =>
    JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')),
  );
  const external = manifests
    .flatMap((pkg) => Object.keys(pkg.dependencies ?? {}))
    .filter((name) => !name.startsWith('@athena/'));
  const result = await build({
    entryPoints: {
      main: `${root}apps/server/src/main.ts`,
      'knowledge-files.worker': `${root}apps/server/src/modules/knowledge/knowledge-files.worker.ts`,
      // The code and template nodes' sandbox process and its threads (modules/workflow/sandbox).
      'workflow-sandbox-host': `${root}apps/server/src/modules/workflow/sandbox/sandbox-host.ts`,
      'workflow-quickjs.worker': `${root}apps/server/src/modules/workflow/sandbox/quickjs.worker.ts`,
      'workflow-python.worker': `${root}apps/server/src/modules/workflow/sandbox/python.worker.ts`,
      'dify-files.worker': `${root}apps/server/src/modules/workflow/dify/dify-files.worker.ts`,
      'chat-voice.worker': `${root}apps/server/src/modules/chat-history/voice.worker.ts`,
    },
    outdir: `${root}apps/server/dist`,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    logLevel: 'warning',
    write: false,
  });
  // Write-then-rename: several processes started from one checkout never see a half-written file.
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
