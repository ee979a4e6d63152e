import type { FastifyBaseLogger } from 'fastify';
import type { AppModule } from '../module.ts';
import type { Database } from './database.ts';
import { rowsOf } from './sql.ts';

/**
 * Autovacuum's rule, coarser: analyse a table once this many rows plus this share of it have
 * changed. Coarser because each analysis holds the embedded database for a moment (a sample of
 * 30 000 rows, about half a second at a million): a bulk load of a million rows is analysed some
 * twenty times, not a hundred.
 */
const BASE_THRESHOLD = 1_000;
const SCALE_FACTOR = 0.5;
/** BASE_THRESHOLD in pages, for the check at start, which sees sizes rather than rows. */
const BASE_PAGES = 8;

/**
 * The planner's statistics on the embedded database. PGlite runs no background workers, so no
 * autovacuum ever analyses a table there: after a bulk load the planner takes a table of a million
 * rows for an empty one and picks plans that read it whole (a filtered conversation list took 45 s
 * instead of 150 ms). Writers note the rows they add; a table is analysed, in the background and
 * one at a time, once enough of it changed; the whole database every 30 minutes, for tables nobody
 * notes; and on start the tables whose size moved since their statistics (what the notes of the
 * last process may have lost). Not the whole database on start: that held every start for 0.5–1.5 s
 * (108 tables), before the server listened, to find nothing changed. Nor does anything vacuum: a table whose rows are updated (each update
 * leaves the old version behind) is noted as such and vacuumed as well as analysed, or it and its
 * indexes grow with every update (conversations are updated by every batch of messages). On a
 * PostgreSQL server autovacuum does all this, and nothing here runs.
 */
export function createPlannerStatistics(database: Database, log: FastifyBaseLogger) {
  const selfMaintained = database.traits.noBackgroundWorkers;
  const changed = new Map<string, number>();
  const updated = new Set<string>();
  const sizeAtAnalyze = new Map<string, number>();
  let running: Promise<void> = Promise.resolve();

  async function analyze(table?: string, vacuum = false) {
    const started = performance.now();
    await database.executeSql(table ? `${vacuum ? 'vacuum (analyze)' : 'analyze'} ${table}` : 'analyze');
    if (table) {
      const [row] = rowsOf<{ rows: number }>(
        await database.executeSql('select reltuples::float8 as rows from pg_class where relname = $1', [table]),
      );
      sizeAtAnalyze.set(table, Math.max(0, row?.rows ?? 0));
    }
    log.debug(
      { table: table ?? '(all)', vacuum, ms: Math.round(performance.now() - started) },
      'planner statistics gathered',
    );
  }

  /**
   * Tables never analysed, and tables whose pages differ from the count their statistics saw by the
   * same rule as noted writes (in pages; BASE_PAGES ≈ BASE_THRESHOLD narrow rows). One catalogue
   * query instead of reading every table: on a start with nothing changed, nothing is analysed.
   */
  async function analyzeChangedTables() {
    const stale = rowsOf<{ name: string }>(
      await database.executeSql(
        `select format('%I.%I', n.nspname, c.relname) as name
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p', 'm')
            and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
            and (c.reltuples < 0
                 or abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages) >= $1::int + $2::float8 * c.relpages)
          order by 1`,
        [BASE_PAGES, SCALE_FACTOR],
      ),
    ).map((row) => row.name);
    if (stale.length === 0) return;
    const started = performance.now();
    await database.executeSql(`analyze ${stale.join(', ')}`);
    log.debug({ tables: stale.length, ms: Math.round(performance.now() - started) }, 'planner statistics gathered');
  }

  const module: AppModule = {
    name: 'planner-statistics',
    routes: () => {},
    ...(selfMaintained
      ? {
          onStart: analyzeChangedTables,
          schedules: [{ name: 'embedded-analyze', cron: '*/30 * * * *', run: () => analyze() }],
        }
      : {}),
  };

  return {
    module,
    /**
     * `rows` rows of `table` were added, or with `updates` changed in place (a fixed table name,
     * never user input).
     */
    noteWrites(table: string, rows: number, kind: 'inserts' | 'updates' = 'inserts') {
      if (!selfMaintained || rows <= 0) return;
      if (kind === 'updates') updated.add(table);
      const total = (changed.get(table) ?? 0) + rows;
      changed.set(table, total);
      if (total < BASE_THRESHOLD + SCALE_FACTOR * (sizeAtAnalyze.get(table) ?? 0)) return;
      changed.set(table, 0);
      const vacuum = updated.delete(table);
      running = running
        .then(() => analyze(table, vacuum))
        .catch((error) => log.warn({ err: error, table }, 'planner statistics could not be gathered'));
    },
  };
}

export type PlannerStatistics = ReturnType<typeof createPlannerStatistics>;
