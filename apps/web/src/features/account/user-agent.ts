export interface DeviceSummary {
  /** "Chrome 126", "WeChat 8.0", or null when the agent says nothing we recognise. */
  browser: string | null;
  /** "Windows", "macOS", "iOS 17", "Android 14", … or null. */
  os: string | null;
  mobile: boolean;
}

const major = (version: string | undefined) => version?.split(/[._]/)[0];

const named = (name: string, version?: string) => (version ? `${name} ${major(version)}` : name);

/** Order matters: Edge, Opera and WeChat also claim to be Chrome and Safari. */
const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/([\d.]+)/, 'WeChat'],
  [/wxwork\/([\d.]+)/i, 'WeCom'],
  [/DingTalk\/([\d.]+)/, 'DingTalk'],
  [/EdgA?\/([\d.]+)/, 'Edge'],
  [/EdgiOS\/([\d.]+)/, 'Edge'],
  [/OPR\/([\d.]+)/, 'Opera'],
  [/SamsungBrowser\/([\d.]+)/, 'Samsung Internet'],
  [/UCBrowser\/([\d.]+)/, 'UC Browser'],
  [/QQBrowser\/([\d.]+)/, 'QQ Browser'],
  [/Quark\/([\d.]+)/, 'Quark'],
  [/(?:Firefox|FxiOS)\/([\d.]+)/, 'Firefox'],
  [/(?:HeadlessChrome|Chrome|CriOS)\/([\d.]+)/, 'Chrome'],
  [/Version\/([\d.]+).*Safari\//, 'Safari'],
];

function browserOf(ua: string): string | null {
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) return named(name, match[1]);
  }
  // Scripts and tools: "curl/8.5.0", "node", "okhttp/4.12" → their first product token.
  const tool = /^([A-Za-z][\w-]*)(?:\/([\d.]+))?/.exec(ua);
  return tool && !/^Mozilla$/i.test(tool[1]) ? named(tool[1], tool[2]) : null;
}

function osOf(ua: string): string | null {
  let match = /(?:OpenHarmony|HarmonyOS)[ /]?([\d.]+)?/.exec(ua);
  if (match) return named('HarmonyOS', match[1]);
  match = /(?:iPhone|iPad|iPod).*? OS ([\d_]+)/.exec(ua);
  if (match) return named(/iPad/.test(ua) ? 'iPadOS' : 'iOS', match[1]);
  match = /Android ([\d.]+)/.exec(ua);
  if (match) return named('Android', match[1]);
  if (/Android/.test(ua)) return 'Android';
  if (/Windows/.test(ua)) return 'Windows';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macOS';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return null;
}

/**
 * A short, human summary of a session's user agent ("Chrome 126 · Windows"). Deliberately
 * simple: a few well-known patterns, good enough to recognise one's own devices.
 */
export function summarizeUserAgent(ua: string | null | undefined): DeviceSummary {
  const text = ua?.trim() ?? '';
  if (!text) return { browser: null, os: null, mobile: false };
  return {
    browser: browserOf(text),
    os: osOf(text),
    mobile: /Mobi|iPhone|iPod|Android.*Mobile|HarmonyOS.*Phone/.test(text),
  };
}
