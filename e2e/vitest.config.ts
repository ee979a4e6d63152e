import { defineConfig } from 'vitest/config';

// Browser tests: Playwright (playwright-core) driving Debian's Chromium against the production
// build, started with `npm start` exactly as the README does.
export default defineConfig({
  test: {
    // The browser tier (docs/testing.md); unit and integration are the root config's projects.
    name: 'browser',
    root: 'e2e',
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['support/global-setup.ts'],
    setupFiles: ['support/on-failure.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll's 1 s default is shorter than one save-and-refetch on a loaded 2-core machine;
    // Playwright's own waits already allow 10 s.
    expect: { poll: { timeout: 10_000 } },
    // One browser at a time keeps a 2-core machine responsive and the server log readable.
    fileParallelism: false,
  },
});
