// When a browser test fails, print what its open pages show and last did, so a failure in CI
// (where only the output is kept) can be understood without re-running it.
import { afterEach, beforeEach, expect } from 'vitest';
import { describeOpenPages, takeCspViolations } from './browser.ts';

beforeEach((context) => {
  context.onTestFailed(async () => {
    const report = await describeOpenPages(context.task.name);
    if (report) console.error(`\n--- open pages at the failure of "${context.task.name}" ---\n${report}\n`);
  });
});

// Every page must run under the server's Content-Security-Policy: a violation fails the test.
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});
