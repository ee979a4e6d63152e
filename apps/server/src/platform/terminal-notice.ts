/** Where plain notices go: the process's stdout, or a stand-in in tests. */
export interface NoticeOut {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * A plain line for a person at a terminal (the dev SMS code, the address to open), beside the
 * JSON log line that says the same for machines. Written only when stdout is a terminal: when it is
 * a file or a pipe (production, containers, tests), the log stays JSON lines only.
 */
export function noticeOnTerminal(text: string, out: NoticeOut = process.stdout) {
  if (out.isTTY) out.write(`${text}\n`);
}
