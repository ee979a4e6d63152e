import * as contract from '@athena/contract';
import {
  ATTACHMENT_DOWNLOAD_PATH,
  attachmentDownloadBody,
  REPORT_EXPORT_PATH,
  type RouteDescriptor,
  reportFilterSchema,
  type StreamAuth,
  type StreamDescriptor,
  type UploadDescriptor,
  USAGE_EXPORT_PATH,
  usageFilterSchema,
} from '@athena/contract';
import type { z } from 'zod';

/** One call of the API as the contract describes it. */
export type ContractRoute =
  | { kind: 'json'; path: string; auth: boolean; body: z.ZodType; descriptor: RouteDescriptor }
  | { kind: 'stream'; path: string; auth: StreamAuth; body: z.ZodType; descriptor: StreamDescriptor }
  | { kind: 'upload'; path: string; auth: boolean; descriptor: UploadDescriptor }
  /** A JSON body answered with a file (or the error envelope). */
  | { kind: 'file'; path: string; auth: true; body: z.ZodType };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function asRoute(value: unknown): ContractRoute | null {
  if (!isRecord(value) || typeof value.path !== 'string' || !value.path.startsWith('/')) return null;
  if ('events' in value) {
    const descriptor = value as unknown as StreamDescriptor;
    return { kind: 'stream', path: descriptor.path, auth: descriptor.auth, body: descriptor.body, descriptor };
  }
  if ('maxBytes' in value) {
    const descriptor = value as unknown as UploadDescriptor;
    return { kind: 'upload', path: descriptor.path, auth: descriptor.auth, descriptor };
  }
  if ('body' in value && 'data' in value) {
    const descriptor = value as unknown as RouteDescriptor;
    return { kind: 'json', path: descriptor.path, auth: descriptor.auth, body: descriptor.body, descriptor };
  }
  return null;
}

/**
 * Every call the contract describes, found by walking what `@athena/contract` exports: each
 * `defineRoute`, `defineStream` and `defineUpload` descriptor, alone or in a group such as
 * `agentRoutes`. A new descriptor is picked up by the generated tests without being listed.
 */
export function contractRoutes(): ContractRoute[] {
  const found = new Map<string, ContractRoute>();
  const add = (route: ContractRoute | null) => {
    if (route && !found.has(route.path)) found.set(route.path, route);
  };
  for (const value of Object.values(contract)) {
    add(asRoute(value));
    if (isRecord(value) && !asRoute(value)) for (const member of Object.values(value)) add(asRoute(member));
  }
  // The attachment download answers with a file, so it has a body schema but no descriptor.
  add({ kind: 'file', path: ATTACHMENT_DOWNLOAD_PATH, auth: true, body: attachmentDownloadBody });
  // The fee records' CSV: the usage filter in, a CSV file (or the error envelope) out.
  add({ kind: 'file', path: USAGE_EXPORT_PATH, auth: true, body: usageFilterSchema });
  // The service report's CSV: the report filter in, a CSV file (or the error envelope) out.
  add({ kind: 'file', path: REPORT_EXPORT_PATH, auth: true, body: reportFilterSchema });
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Routes the server has that the contract does not describe, and why: they are not part of the
 * API a client calls, so the generated tests leave them alone.
 */
export const OUTSIDE_THE_CONTRACT: Record<string, string> = {
  '/accountv2/wechat/callback': "WeChat's own server calls it with a signature (wechat-official.test.ts)",
  '/api/openapi.json': 'the generated document itself',
};
