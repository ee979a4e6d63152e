import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, newContext } from './browser.ts';

/**
 * Opens a standalone page (`/only-…`) the way a CRM embeds it: another site (127.0.0.1 is not
 * localhost's site) frames it, signed in by the address. Waits for the page (`page-<pageId>`), checks
 * that no navigation of the app is around it, and runs `use` while the framing site is up.
 */
export async function inFramingSite(
  browser: Browser,
  target: { path: string; pageId: string; session: { token: string; spaceId: string } },
  use: (page: Page, frame: FrameLocator) => Promise<void>,
) {
  const { path, pageId, session } = target;
  const parent = http.createServer((_req, res) => {
    const src = `${baseUrl()}${path}?token=${session.token}&spaceId=${session.spaceId}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>CRM</title><iframe src="${src}" style="width:1200px;height:760px"></iframe>`);
  });
  await new Promise<void>((resolve) => parent.listen(0, '127.0.0.1', resolve));
  try {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`http://127.0.0.1:${(parent.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe');
    await frame.getByTestId(`page-${pageId}`).waitFor();
    expect(await frame.locator('.ant-layout-sider').count()).toBe(0);
    await use(page, frame);
  } finally {
    parent.close();
  }
}
