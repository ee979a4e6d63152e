import { createRequire } from 'node:module';
import type Papa from 'papaparse';

const load = createRequire(import.meta.url);
let papa: typeof Papa | null = null;

/** papaparse, loaded on first use (synchronously, as it is used): ~7 MB a server may never need. */
export const papaparse = (): typeof Papa => {
  papa ??= load('papaparse') as typeof Papa;
  return papa;
};
