// `npm run openapi`: writes the OpenAPI document the server serves at /api/openapi.json to
// apps/server/openapi.json (sorted keys, so only real changes show in a diff). It runs the test
// that guards the file (apps/server/src/platform/http/openapi.test.ts) in its writing mode, so
// the server is built exactly as the tests build it (in-memory database, the dev vendors, hence
// the dev-only calls are listed) and the file can never disagree with that test.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync('npx', ['vitest', 'run', 'apps/server/src/platform/http/openapi.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, OPENAPI_WRITE: '1' },
});
if (result.status === 0) console.log('wrote apps/server/openapi.json');
process.exit(result.status ?? 1);
