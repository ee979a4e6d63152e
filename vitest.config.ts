import { configDefaults, defineConfig } from 'vitest/config';

// Test tiers (docs/testing.md). The rule: a test under apps/server/src is an integration test
// unless it is on this list of pure-logic server tests; every other test is a unit test. Browser
// tests live in e2e/ with their own config. A new server test that touches neither a database,
// a server, a process nor the network may join this list.
const pureServerTests = [
  'apps/server/src/architecture.test.ts',
  'apps/server/src/config.test.ts',
  'apps/server/src/platform/csv.test.ts',
  'apps/server/src/platform/crypto.test.ts',
  'apps/server/src/platform/signed-url.test.ts',
  'apps/server/src/platform/sms/dev-sms.test.ts',
  'apps/server/src/modules/media/delivery.test.ts',
  'apps/server/src/modules/billing/wechat-pay-crypto.test.ts',
  'apps/server/src/platform/db/database.test.ts',
  'apps/server/src/platform/http/route.test.ts',
  'apps/server/src/platform/wecom/msg-crypt.test.ts',
  'apps/server/src/platform/rate-limit/address-key.test.ts',
  'apps/server/src/modules/billing/alipay-amount.test.ts',
  'apps/server/src/modules/custom-business/file-check.test.ts',
  'apps/server/src/modules/chat-history/office-hours.test.ts',
  'apps/server/src/modules/user-profile/extraction-rules.test.ts',
  'apps/server/src/modules/chat-history/search-terms.test.ts',
  'apps/server/src/modules/chat-history/wecom-messages.test.ts',
  'apps/server/src/modules/knowledge/fulltext.test.ts',
  'apps/server/src/modules/workflow/executors/json-reply.test.ts',
  'apps/server/src/modules/workflow/runs/stored-payload.test.ts',
  'apps/server/src/modules/workflow/dify/convert.test.ts',
  'apps/server/src/modules/workflow/templates/templates.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            ...pureServerTests,
            'apps/web/src/**/*.test.{ts,tsx}',
            'packages/*/src/**/*.test.ts',
            'scripts/**/*.test.mjs',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.test.{ts,tsx}'],
          // apps/server/src/scale is the PostgreSQL tier, with a config of its own (vitest.postgres.config.ts).
          exclude: [...configDefaults.exclude, ...pureServerTests, 'apps/server/src/scale/**'],
          // Finds or builds the migrated template database every test app is copied from.
          globalSetup: ['apps/server/src/testing/template-global-setup.ts'],
        },
      },
    ],
  },
});
