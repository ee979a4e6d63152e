/** Every localStorage key the web app uses, in one place. */
export const STORAGE_KEYS = {
  token: 'athena.token',
  spaceId: 'athena.spaceId',
  language: 'athena.language',
  sceneId: 'athena.sceneId',
  /** The signed-in person's theme (light/dark/system), so a reload paints right away. */
  theme: 'athena.theme',
  /** The signed-in person's chosen IANA zone; absent means this device's zone. */
  timezone: 'athena.timezone',
  /** The dev WeChat provider's simulated phone remembers "who" scanned last. */
  devWechatOpenid: 'athena.devWechatOpenid',
  /** Which side panels of the workflow editor (node list, settings) are shown. */
  workflowPanels: 'athena.workflowEditor.panels',
} as const;

/**
 * sessionStorage (not localStorage, which a login expiry wipes): a notice to show once after the
 * page reloads, e.g. "Login has expired".
 */
export const PENDING_NOTICE_KEY = 'athena.pendingNotice';
