import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { z } from 'zod';
import { makePng } from '../modules/custom-business/test-files.ts';
import type { ContractRoute } from './contract-routes.ts';
import { idSlotsOf, requestSchemasOf, slotKind, slotValue } from './id-slots.ts';
import type { SeededObjects } from './seed-team.ts';
import { zodArbitrary } from './zod-arbitrary.ts';

/**
 * Values that meet the contract's refinements, by field name: the schema's own checks cannot say
 * what a valid ID number, a reachable model endpoint or a contact detail looks like.
 */
export const validFields = (modelBaseUrl: string): Record<string, unknown> => ({
  phone: '13912345678',
  contact_phone: '13912345678',
  contact_email: 'probe@example.com',
  base_url: modelBaseUrl,
  api_key: 'sk-fake',
  version: 'fake-chat',
  id_number: '11010519491231002X',
  name: 'Probe',
  nickname: 'Probe',
  title: 'Probe',
  confirm_name: 'Probe',
  requirements: 'Probe requirements, long enough to pass.',
  expected_date: null,
  timezone: 'Asia/Shanghai',
  time_zone: 'Asia/Shanghai',
  message: 'What is the refund policy?',
  messages: [{ role: 'user', content: 'What is the refund policy?' }],
  query: 'refund',
  content: 'Probe content',
  chunking: { mode: 'auto' },
  file_name: 'probe.txt',
  'x-file-name': 'probe.png',
});

/** A value of the caller's own for a slot that names nothing of anyone else (id-slots.ts, OWN_VALUE). */
function ownValue(key: string): unknown {
  if (key.endsWith('_ids')) return ['probe-own-value'];
  if (key === 'visitor_id') return `visitor-${randomUUID()}`;
  if (key === 'batch_id') return randomUUID();
  if (key === 'code') return '123456';
  if (key === 'callback_token') return 'probeToken';
  return 'probe-own-value';
}

/** Every id slot of a route filled: team A's objects, or the caller's own values. */
export function slotFills(route: ContractRoute, objects: SeededObjects): Record<string, unknown> {
  const fills: Record<string, unknown> = {};
  for (const schema of requestSchemasOf(route)) {
    for (const key of idSlotsOf(schema)) {
      const kind = slotKind(route.path, key);
      if (kind === 'own') fills[key] = ownValue(key);
      else if (kind !== 'unmapped') fills[key] = slotValue(objects, route.path, key);
    }
  }
  return fills;
}

/**
 * A value the schema accepts, built from the walker with these fields fixed; the same every run
 * (a fixed seed). Throws when none is found, naming the schema's first complaint, so a new
 * refinement gets a value in `validFields` instead of a test that silently sends junk.
 */
export function validValue(schema: z.ZodType, fields: Record<string, unknown>, what: string): unknown {
  const constants = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, fc.constant(value)]));
  const candidates = fc.sample(zodArbitrary(schema, { fields: constants }), { seed: 7, numRuns: 200 });
  const found = candidates.find((value) => schema.safeParse(value).success);
  if (found !== undefined || schema.safeParse(undefined).success) return found;
  const issue = schema.safeParse(candidates[0]).error?.issues[0];
  throw new Error(`no valid value for ${what}: ${issue?.path.join('.')}: ${issue?.message}; add one to validFields`);
}

/** A small file each upload route accepts. */
export function uploadBytes(route: ContractRoute): Buffer {
  if (route.kind !== 'upload') return Buffer.alloc(0);
  return route.descriptor.contentTypes.some((type) => type.startsWith('image/')) || route.path.includes('attachment')
    ? makePng()
    : Buffer.from('Probe file text.\n\nA second paragraph.');
}
