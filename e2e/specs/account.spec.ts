import { deflateSync } from 'node:zlib';
import { accountRoutes, type Envelope, type RouteBody, type RouteData, type RouteDescriptor } from '@athena/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchLanguage } from '../support/billing.ts';
import { baseUrl, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, signInWithTestNumber } from '../support/session.ts';

/** CRC-32 (PNG chunks), small enough to inline. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A real `size`×`size` RGB PNG: an indigo square with a lighter diagonal. */
function makePng(size = 48): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0]; // filter: none
    for (let x = 0; x < size; x++) row.push(...(Math.abs(x - y) < 6 ? [165, 180, 252] : [79, 70, 229]));
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function call<R extends RouteDescriptor>(route: R, token: string, body: RouteBody<R>) {
  const res = await fetch(`${baseUrl()}${route.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<RouteData<R>>;
}

const resetSettings = (token: string) =>
  call(accountRoutes.settingsUpdate, token, {
    language: null,
    timezone: null,
    theme: 'system',
    default_space_id: null,
  });

/** Full-page screenshot from the top (sticky header and sider otherwise land mid-page). */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('account, real-name verification and settings', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let originalNickname = '';

  beforeAll(async () => {
    // Settings follow the person, and other specs may have left some on the shared test number
    // (the header's language switcher saves the choice): start from the defaults.
    await resetSettings(await apiToken());
    browser = await launchChromium();
    context = await newContext(browser, 'zh-CN');
    page = await context.newPage();
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
    originalNickname = (await page.getByTestId('dashboard-nickname').textContent()) ?? '';
  });

  afterAll(async () => {
    // The test number is shared by every spec: give back the nickname and default settings.
    const token = await apiToken();
    await call(accountRoutes.update, token, { nickname: originalNickname });
    await resetSettings(token);
    await browser.close();
  });

  it('edits the nickname: too long or empty is refused, a valid one shows in the header at once', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-account').click();
    await page.getByTestId('page-account').waitFor();

    await page.getByTestId('nickname-edit').click();
    await page.getByTestId('nickname-input').fill('长'.repeat(31));
    await page.getByTestId('nickname-save').click();
    await page.getByTestId('nickname-error').getByText('昵称最多 30 个字符。').waitFor();
    await page.getByTestId('nickname-input').fill('   ');
    await page.getByTestId('nickname-save').click();
    await page.getByTestId('nickname-error').getByText('昵称不能为空。').waitFor();

    await page.getByTestId('nickname-input').fill('  雅典娜测试员  ');
    await page.getByTestId('nickname-save').click();
    await page.getByTestId('account-nickname').getByText('雅典娜测试员', { exact: true }).waitFor();
    expect(await page.getByTestId('user-menu-nickname').textContent()).toBe('雅典娜测试员');
  });

  it('checks an avatar before upload, uploads a PNG and updates the header avatar', async () => {
    const input = page.getByTestId('avatar-input');
    await input.setInputFiles({ name: 'not-an-image.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a....') });
    await page.getByTestId('avatar-error').getByText('头像仅支持 JPG 或 PNG 图片。').waitFor();
    const big = Buffer.concat([makePng(4), Buffer.alloc(2 * 1024 * 1024)]);
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await page.getByTestId('avatar-error').getByText('头像不能超过 2 MB。').waitFor();

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    const headerAvatar = page.getByTestId('user-menu').locator('img');
    await headerAvatar.waitFor();
    const src = (await headerAvatar.getAttribute('src')) ?? '';
    expect(src).not.toMatch(/^blob:/);
    expect(await page.getByTestId('avatar-error').count()).toBe(0);
    // The server serves what it stored.
    const image = await page.request.get(new URL(src, baseUrl()).toString());
    expect(image.status()).toBe(200);
    expect((await image.body()).subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('sends a change-phone code with the same 15-second cooldown', async () => {
    await page.getByTestId('change-phone-button').click();
    const modal = page.getByTestId('change-phone-modal');
    await modal.getByTestId('phone-input').fill('13912345678');
    await modal.getByTestId('send-code-button').click();
    await expect.poll(() => modal.getByTestId('send-code-button').textContent()).toMatch(/1[0-5]/);
    expect(await modal.getByTestId('send-code-button').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
  });

  it('links WeChat through the dev QR, then unlinks it', async () => {
    await page.getByTestId('wechat-bind-button').click();
    const link = page.getByTestId('wechat-bind-dev-link');
    const href = await link.getAttribute('href');
    const phone = await context.newPage();
    await phone.goto(href!);
    await phone.getByTestId('dev-wechat-new').click();
    await phone.getByTestId('dev-wechat-done').waitFor();
    await phone.close();
    await page.locator('[data-testid="account-wechat"][data-linked="true"]').waitFor({ timeout: 10_000 });

    await page.getByTestId('wechat-unbind-button').click();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await page.locator('[data-testid="account-wechat"][data-linked="false"]').waitFor();
  });

  it('lists this session with a readable device and a relative time in Chinese', async () => {
    const mine = page.locator('[data-testid="session-row"][data-current="true"]');
    await mine.waitFor();
    expect(await mine.getByTestId('session-device').textContent()).toMatch(/Chrome \d+ · Linux/);
    expect(await mine.getByTestId('session-this-device').textContent()).toBe('当前设备');
    expect(await mine.getByTestId('session-last-active').textContent()).toMatch(/前/);
    await shot(page, 'account-zh-CN');
  });

  it('runs real-name verification with the dev provider: pending, then verified with a masked ID', async () => {
    await page.getByTestId('realname-link').click();
    await page.getByTestId('faceid-form').waitFor();
    await page.getByTestId('faceid-name').fill('张三丰');
    await page.getByTestId('faceid-id-number').fill('110105194912310021');
    await page.getByTestId('faceid-name').click();
    await page.getByText('请输入有效的 18 位居民身份证号码。').waitFor();
    await shot(page, 'faceid-form-zh-CN');
    await page.getByTestId('faceid-id-number').fill('11010519491231002x');

    const popup = context.waitForEvent('page');
    await page.getByTestId('faceid-submit').click();
    const check = await popup;
    await page.getByTestId('faceid-pending').waitFor();
    await check.waitForURL('**/dev/faceid/*');
    await check.getByTestId('dev-faceid').waitFor();
    await shot(page, 'faceid-pending-zh-CN');
    await switchLanguage(page, 'en');
    await page.getByText('Waiting for your face check').waitFor();
    await shot(page, 'faceid-pending-en');

    await check.getByTestId('dev-faceid-pass').click();
    await check.getByTestId('dev-faceid-done').waitFor();
    await shot(check, 'dev-faceid-zh-CN');
    await check.close();

    // The pending page polls realname/refresh every few seconds.
    await page.getByTestId('faceid-verified').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('faceid-id-masked').textContent()).toBe('110***********002X');
    expect(await page.getByTestId('faceid-name-masked').textContent()).toBe('张**');
    expect(await page.getByTestId('faceid-verified-at').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await shot(page, 'faceid-verified-en');
    await switchLanguage(page, 'zh-CN');
    await page.getByText('已完成实名认证').waitFor();
    await shot(page, 'faceid-verified-zh-CN');

    await page.getByTestId('nav-account').click();
    await page.locator('[data-testid="account-realname"][data-state="verified"]').waitFor();
    await switchLanguage(page, 'en');
    await page.getByText('Where you are signed in').waitFor();
    // The personal space, named at sign-up in Chinese, is named in English after the new nickname.
    expect(await page.getByTestId('space-switcher').textContent()).toContain("雅典娜测试员's space");
    await shot(page, 'account-en');
    await switchLanguage(page, 'zh-CN');
  });

  it('saves settings on the server and applies theme and language at once', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('page-settings').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await shot(page, 'settings-zh-CN');

    // Time zone: searchable, applied to the displayed time.
    await page.getByTestId('settings-timezone').click();
    await page.keyboard.type('new york');
    await page.locator('.ant-select-item-option[title*="New York"]').click();
    await page.getByTestId('settings-timezone-now').getByText('America/New_York').waitFor();

    await page.getByTestId('settings-theme-dark').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const background = await page.evaluate(
      () => getComputedStyle(document.querySelector('.ant-card')!).backgroundColor,
    );
    expect(background).not.toBe('rgb(255, 255, 255)');

    await page.getByTestId('settings-language').click();
    await page.getByTestId('settings-language-option-en').click();
    await page.getByTestId('page-title').getByText('Platform settings').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await shot(page, 'settings-en');
    await page.getByTestId('nav-account').click();
    await page.getByTestId('sessions-card').waitFor();
    await shot(page, 'account-dark-en');
  });

  it('follows the person to a new device: the same theme and language after signing in there', async () => {
    const other = await newContext(browser, 'zh-CN');
    const second = await other.newPage();
    await second.goto('/dashboard');
    await signInWithTestNumber(second);
    await second.waitForFunction(() => document.documentElement.lang === 'en');
    await second.getByText('Balance').first().waitFor();
    expect(await second.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await second.evaluate(() => localStorage.getItem('athena.timezone'))).toBe('America/New_York');

    // Back on the first device (the list loads afresh on opening the page): sign out every
    // other session; the second device is signed out.
    await page.getByTestId('nav-dashboard').click();
    await page.getByTestId('nav-account').click();
    await page.locator('[data-testid="session-row"][data-current="false"]').first().waitFor();
    await page.getByTestId('sessions-revoke-others').click();
    await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
    await page.getByTestId('sessions-empty').waitFor();
    await second.reload();
    await second.getByTestId('login-modal').waitFor();
    await other.close();
  });
});
