import { createHash } from 'node:crypto';

/**
 * Our WeCom msgid for a message we send: `prefix` and a hash of `parts`, so the same message gets
 * the same id on every attempt and in every process (WeCom refuses a msgid it has seen, which makes
 * a retried send harmless), while another database (a second deployment on the same WeCom corp, or
 * a restored copy) reusing a sequence number does not collide. WeCom takes at most 32 bytes of
 * [0-9a-zA-Z_-@]; base64url is within that.
 */
export const wecomMsgid = (prefix: string, ...parts: (string | number)[]) =>
  `${prefix}${createHash('sha256')
    .update(parts.join(':'))
    .digest('base64url')
    .slice(0, 32 - prefix.length)}`;
