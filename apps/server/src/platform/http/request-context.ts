import type { Language } from '@athena/contract';
import type { FastifyRequest } from 'fastify';
import { languageOf } from './error-handler.ts';

/** What every handler learns about its request before any session is looked at. */
export interface RequestContext {
  request: FastifyRequest;
  language: Language;
  /** IANA name from the `timezone` header, for day buckets; UTC when absent or unknown. */
  timezone: string;
  ip: string;
}

// Checking a zone name with Intl costs far more than the rest of a cached call; remember answers.
const knownZones = new Map<string, boolean>();

function timezoneOf(request: FastifyRequest) {
  const value = request.headers.timezone;
  if (typeof value !== 'string' || value.length > 64) return 'UTC';
  let valid = knownZones.get(value);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      // Node 22 and later also take a UTC offset ('+08:00'); Node 20 refuses it: names only, the same on both.
      valid = !/^[+-]/.test(value.trim());
    } catch {
      valid = false;
    }
    if (knownZones.size < 1000) knownZones.set(value, valid);
  }
  return valid ? value : 'UTC';
}

export const contextOf = (request: FastifyRequest): RequestContext => ({
  request,
  language: languageOf(request),
  timezone: timezoneOf(request),
  ip: request.ip,
});
