// `npm start`: builds the web app when no build exists, bundles the server when its sources changed
// since the last bundle (scripts/build-server.mjs), and runs it: API, jobs and the SPA on one port,
// embedded PostgreSQL in ./data unless DATABASE_URL.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const webIndex = process.env.WEB_DIST ? `${process.env.WEB_DIST}/index.html` : `${root}apps/web/dist/index.html`;

if (!existsSync(webIndex)) {
  console.log('No web build found; building it once (npm run build)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@athena/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await buildServer();
await import('../apps/server/dist/main.mjs');
