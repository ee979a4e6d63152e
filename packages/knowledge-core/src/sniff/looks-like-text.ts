/**
 * Whether decoded bytes are really text. Binary files (images, executables, old .doc/.xls) decode
 * "successfully" as gb18030 or big5, so the decoded result has to be judged, not just produced.
 */

// Share of suspicious characters a real text file never reaches; a few stray ones are tolerated.
const MAX_SUSPICIOUS_RATIO = 0.01;
const MAX_CHECKED_CHARS = 1_000_000;

function isSuspicious(code: number): boolean {
  if (code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
  // C0 controls, DEL and C1 controls, plus the replacement character left by undecodable bytes.
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xfffd;
}

export function looksLikeText(text: string): boolean {
  if (text.includes('\u0000')) return false;
  const checked = Math.min(text.length, MAX_CHECKED_CHARS);
  let suspicious = 0;
  for (let index = 0; index < checked; index++) {
    if (isSuspicious(text.charCodeAt(index))) suspicious++;
  }
  return suspicious <= Math.max(1, checked * MAX_SUSPICIOUS_RATIO);
}
