import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

const artifacts = fileURLToPath(new URL('../artifacts', import.meta.url));

export const baseUrl = () => inject('baseUrl');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Content-Security-Policy violations any page reported since the last check (support/on-failure.ts). */
const cspViolations: string[] = [];

/** The violations reported since the last call; every page of the app must pass its own policy. */
export const takeCspViolations = () => cspViolations.splice(0);

/** What each open page last did that may explain a failure: console errors, failed or refused requests. */
const openPages = new Map<Page, string[]>();
const EVENTS_KEPT = 15;

function watch(page: Page) {
  const events: string[] = [];
  const note = (line: string) => {
    events.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (events.length > EVENTS_KEPT) events.shift();
  };
  openPages.set(page, events);
  page.on('close', () => openPages.delete(page));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      note(`console.${message.type()}: ${message.text()}`);
    if (message.text().includes('Content Security Policy')) cspViolations.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('requestfailed', (request) => note(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) note(`HTTP ${response.status()}: ${response.url()}`);
    else if (response.url().includes('/accountv2/') || response.url().includes('/api/')) {
      // The API answers 200 with a business code; a non-zero one is worth seeing.
      const body = await response.json().catch(() => null);
      if (body && typeof body.code === 'number' && body.code !== 0)
        note(`code ${body.code}: ${response.url()} ${body.msg}`);
    }
  });
}

/**
 * For a failed test (support/on-failure.ts): each open page's address, visible text and recent
 * events, and a screenshot under e2e/artifacts/failed-*.png.
 */
export async function describeOpenPages(testName: string): Promise<string> {
  const parts: string[] = [];
  let index = 0;
  for (const [page, events] of openPages) {
    index++;
    const file = `failed-${testName.replace(/[^\w-]+/g, '-').slice(0, 60)}-${index}.png`;
    await page.screenshot({ path: path.join(artifacts, file), timeout: 5000 }).catch(() => {});
    const text = await page
      .evaluate(() => document.body.innerText)
      .catch((error: Error) => `(unreadable: ${error.message})`);
    parts.push(
      `page ${index}: ${page.url()} (screenshot ${file})`,
      `  visible text: ${text.replace(/\s+/g, ' ').slice(0, 800)}`,
      ...events.map((event) => `  ${event}`),
    );
  }
  return parts.join('\n');
}

/** A fresh browser profile; `locale` drives navigator.language (and so the app's first language). */
export async function newContext(browser: Browser, locale = 'zh-CN'): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale,
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 860 },
  });
  context.setDefaultTimeout(10_000);
  context.on('page', watch);
  return context;
}

/** Waits until running animations (modal fade-in, popover zoom, dropdown close) have settled. */
export async function settled(page: Page) {
  // Infinite ones (spinners, a "processing" badge's pulse) never settle and are left alone.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/**
 * Clicks a button in a dialog once the dialog's zoom-in has finished: CI runs lost a click made
 * during it (the confirmation stayed open and nothing was sent).
 */
export async function clickWhenSettled(page: Page, testId: string) {
  const button = page.getByTestId(testId);
  await button.waitFor();
  await settled(page);
  await button.click();
}

/**
 * Picks an option of an Ant Design select: by its text, or the first one. Waits for a dialog's
 * zoom-in first and opens the list again if it closed: a CI run clicked the select while its modal
 * was still moving, the list closed under the pointer and the option never became clickable.
 */
export async function chooseOption(page: Page, select: Locator, option?: string | RegExp) {
  await select.waitFor();
  await settled(page);
  const dropdown = page.locator('.ant-select-dropdown:visible');
  for (let attempt = 1; ; attempt++) {
    try {
      if ((await dropdown.count()) === 0) await select.click();
      const options = dropdown.locator('.ant-select-item-option');
      await (option === undefined ? options : options.filter({ hasText: option })).first().click({ timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 4) throw error;
      await settled(page);
    }
  }
}

/** Saves a full-page PNG once running animations have settled. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** The dev SMS provider logs each code; tests read it the way an operator would. */
export function lastSmsCode(phone: string): string | undefined {
  const log = readFileSync(inject('serverLog'), 'utf8');
  const matches = [...log.matchAll(new RegExp(`SMS code for ${phone}: (\\d{6})`, 'g'))];
  return matches.at(-1)?.[1];
}
