// When a browser test fails, print what its open pages show and last did, so a failure in CI
// (where only the output is kept) can be understood without re-running it.
import { beforeEach } from 'vitest';
import { describeOpenPages } from './browser.ts';

beforeEach((context) => {
  context.onTestFailed(async () => {
    const report = await describeOpenPages(context.task.name);
    if (report) console.error(`\n--- open pages at the failure of "${context.task.name}" ---\n${report}\n`);
  });
});
