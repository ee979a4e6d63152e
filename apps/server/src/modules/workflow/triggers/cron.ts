// Five-field cron expressions (minute hour day-of-month month day-of-week) evaluated in an IANA
// time zone. Our own, because cron-parser reaches this package only through pg-boss and is not a
// dependency of the server. Seconds (a sixth field) are refused: a schedule fires at most once a
// minute.

export interface CronSchedule {
  minutes: number[];
  hours: number[];
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Both day fields restricted: a day matches either (classic cron); otherwise both must. */
  dayOr: boolean;
}

export type CronProblem = 'fields' | 'value' | 'timezone';

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  min: number;
  max: number;
  names?: string[];
  /** The first name's number (months start at 1). */
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  // 7 is Sunday too, as in most crons.
  { min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

class CronError extends Error {
  constructor(readonly problem: CronProblem) {
    super(problem);
  }
}

function fieldValue(token: string, spec: FieldSpec): number {
  const name = spec.names?.indexOf(token.toLowerCase()) ?? -1;
  if (name >= 0) return name + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(token)) throw new CronError('value');
  const value = Number(token);
  if (value < spec.min || value > spec.max) throw new CronError('value');
  return value;
}

function parseField(field: string, spec: FieldSpec): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of field.split(',')) {
    const match = /^([^/]+)(?:\/(\d{1,2}))?$/.exec(part);
    if (!match) throw new CronError('value');
    const [, range, stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw new CronError('value');
    let from: number;
    let to: number;
    if (range === '*') {
      from = spec.min;
      to = spec.max;
      if (stepText === undefined) star = true;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      from = fieldValue(a, spec);
      to = fieldValue(b, spec);
      if (from > to) throw new CronError('value');
    } else {
      from = fieldValue(range, spec);
      // `5/15`: from 5 to the end in steps.
      to = stepText === undefined ? from : spec.max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, star };
}

/** A valid IANA zone name (what Intl knows), e.g. Asia/Shanghai, UTC. */
export function isTimeZone(zone: string) {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The expression parsed, or the reason it is refused. */
export function parseCron(expression: string): CronSchedule | CronProblem {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || expression.length > 120) return 'fields';
  try {
    const [minute, hour, day, month, weekday] = fields.map((field, index) => parseField(field, FIELDS[index]));
    const weekdays = new Set([...weekday.values].map((d) => d % 7));
    return {
      minutes: [...minute.values].sort((a, b) => a - b),
      hours: [...hour.values].sort((a, b) => a - b),
      days: day.values,
      months: month.values,
      weekdays,
      dayOr: !day.star && !weekday.star,
    };
  } catch (error) {
    if (error instanceof CronError) return error.problem;
    throw error;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string) {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall-clock time in the zone at an instant, as if it were UTC (ms, whole minutes). */
function wallClock(instant: number, zone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute);
}

/**
 * The instant a wall-clock time in the zone happens, or null when the clock skips it (a DST
 * spring-forward gap). In an autumn overlap the earlier of the two instants is taken.
 */
function instantOf(wall: number, zone: string): number | null {
  const offset = wallClock(wall, zone) - wall;
  for (const guess of [wall - offset, wall - (wallClock(wall - offset, zone) - (wall - offset))]) {
    const earlier = guess - 3_600_000;
    if (wallClock(earlier, zone) === wall) return earlier;
    if (wallClock(guess, zone) === wall) return guess;
  }
  return null;
}

const DAY_MS = 86_400_000;
/** How far ahead to look: the rarest schedule (29 February on a given weekday) recurs within 28 years. */
const SEARCH_DAYS = 366 * 28;

function dayMatches(schedule: CronSchedule, day: Date) {
  if (!schedule.months.has(day.getUTCMonth() + 1)) return false;
  const dom = schedule.days.has(day.getUTCDate());
  const dow = schedule.weekdays.has(day.getUTCDay());
  return schedule.dayOr ? dom || dow : dom && dow;
}

/** The next `count` instants after `after` at which the schedule fires in the zone. */
export function nextFires(schedule: CronSchedule, zone: string, after: Date, count: number): Date[] {
  const fires: Date[] = [];
  const afterMs = after.getTime();
  const startWall = wallClock(afterMs, zone);
  let day = startWall - (startWall % DAY_MS);
  for (let i = 0; i < SEARCH_DAYS && fires.length < count; i++, day += DAY_MS) {
    if (!dayMatches(schedule, new Date(day))) continue;
    for (const hour of schedule.hours) {
      for (const minute of schedule.minutes) {
        const wall = day + hour * 3_600_000 + minute * 60_000;
        if (wall < startWall - 3_600_000) continue;
        const instant = instantOf(wall, zone);
        if (instant === null || instant <= afterMs) continue;
        if (fires.length > 0 && instant <= fires[fires.length - 1].getTime()) continue;
        fires.push(new Date(instant));
        if (fires.length >= count) return fires;
      }
    }
  }
  return fires;
}
