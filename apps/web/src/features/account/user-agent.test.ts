import { describe, expect, it } from 'vitest';
import { summarizeUserAgent } from './user-agent.ts';

describe('summarizeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36',
      'Chrome 126',
      'Windows',
      false,
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari 17',
      'macOS',
      false,
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003137) NetType/WIFI Language/zh_CN',
      'WeChat 8',
      'iOS 17',
      true,
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome 126',
      'Android 14',
      true,
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
      'Edge 126',
      'Windows',
      false,
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox 127', 'Linux', false],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
      'Chrome 140',
      'Linux',
      false,
    ],
    ['curl/8.5.0', 'curl 8', null, false],
    ['node', 'node', null, false],
  ])('%s', (ua, browser, os, mobile) => {
    expect(summarizeUserAgent(ua)).toEqual({ browser, os, mobile });
  });

  it('says nothing for a missing agent', () => {
    expect(summarizeUserAgent(null)).toEqual({ browser: null, os: null, mobile: false });
    expect(summarizeUserAgent('   ')).toEqual({ browser: null, os: null, mobile: false });
  });

  it('does not name "Mozilla" as a browser', () => {
    expect(summarizeUserAgent('Mozilla/5.0 (compatible)').browser).toBeNull();
  });
});
