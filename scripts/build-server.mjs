// Bundles the server's own code (and the contract) into apps/server/dist/main.mjs; packages from
// node_modules stay external. Plain `node` then runs it: no TypeScript loader thread at run time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildServer() {
  const pkg = JSON.parse(readFileSync(`${root}apps/server/package.json`, 'utf8'));
  const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@athena/'));
  await build({
    entryPoints: [`${root}apps/server/src/main.ts`],
    outfile: `${root}apps/server/dist/main.mjs`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
