import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
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

/** A fresh browser profile; `locale` drives navigator.language (and so the app's first language). */
export async function newContext(browser: Browser, locale = 'zh-CN'): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale,
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 860 },
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Saves a full-page PNG once running animations (modal fade-in, dropdown close) have settled. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
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
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** The dev SMS provider logs each code; tests read it the way an operator would. */
export function lastSmsCode(phone: string): string | undefined {
  const log = readFileSync(inject('serverLog'), 'utf8');
  const matches = [...log.matchAll(new RegExp(`SMS code for ${phone}: (\\d{6})`, 'g'))];
  return matches.at(-1)?.[1];
}
