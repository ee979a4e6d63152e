import { buildApp } from './app.ts';
import { ConfigError, loadConfig, MIGRATIONS_DIR } from './config.ts';
import { loadMasterKey } from './platform/crypto.ts';
import { openDatabase } from './platform/db/database.ts';
import { drainStreams } from './platform/http/open-streams.ts';
import { startJobs } from './platform/jobs.ts';
import { noticeOnTerminal } from './platform/terminal-notice.ts';
import { devProvidersIn, providersFromConfig } from './providers.ts';

/**
 * What a stop may take beyond the grace period: interrupted streams' last words (CUT_AFTER_MS, 1 s),
 * then requests still running (CLOSE_CONNECTIONS_MS), then closing the modules and the database.
 */
const STOP_AFTER_GRACE_MS = 2_500;
const CLOSE_CONNECTIONS_MS = 1_000;

/** Waits for `work` at most `ms`; past that, says so and goes on (the work is left to finish or not). */
async function within(work: Promise<unknown>, ms: number, onLate: () => void) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onLate();
      resolve();
    }, ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    migrationsFolder: MIGRATIONS_DIR,
    sharedBuffers: config.PGLITE_SHARED_BUFFERS,
  });
  await database.migrate();

  const app = await buildApp({
    config,
    database,
    masterKey: loadMasterKey({ envValue: config.ATHENA_MASTER_KEY, dataDir: config.DATA_DIR }),
    ...providersFromConfig(config),
  });
  const jobs = await startJobs(database, app.appModules, app.log);

  let closing = false;
  // A stop is bounded (docs/architecture.md, "Stopping"): streams and the job queue get the grace
  // period, side by side from the signal; then interrupted streams, the server and the database
  // get the rest. With the default grace the whole stop fits in the 10 s that Docker and systemd
  // wait before SIGKILL. Past the bound, leave anyway.
  const stopWithinMs = config.SHUTDOWN_GRACE_MS + STOP_AFTER_GRACE_MS;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS, stopWithinMs }, 'shutting down');
    setTimeout(() => {
      app.log.error({ stopWithinMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, stopWithinMs).unref();
    try {
      // The streams' grace starts now, not once the job queue has stopped.
      const draining = drainStreams(app.server, config.SHUTDOWN_GRACE_MS, app.log);
      // Jobs before the app: workers hand unfinished work (units being indexed) back to the queue
      // while the file-reader threads they use are still there (closing the app closes those threads).
      await within(jobs.stop(config.SHUTDOWN_GRACE_MS), config.SHUTDOWN_GRACE_MS, () =>
        app.log.warn('the job queue did not stop within the grace period; going on'),
      );
      // Stops accepting at once; resolves when every connection, open streams included, is gone.
      const closed = app.close();
      // Awaited below; this keeps a rejection while streams drain from going unhandled.
      closed.catch(() => {});
      await draining;
      // A finished stream leaves its connection open and idle for the client to reuse (fetch keeps
      // one 4 s), and the server's close waits for every connection: close the idle ones now, and
      // any still busy a moment later.
      app.server.closeIdleConnections();
      await within(closed, CLOSE_CONNECTIONS_MS, () => {
        app.log.warn('connections still open after the streams; closing them');
        app.server.closeAllConnections();
      });
      await closed;
      app.log.info('server closed');
      await database.close();
      app.log.info('database closed');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // The embedded database's thread ended or hung. Every committed row is already in the data
  // directory; what was in flight fails. Nothing can be served without it: stop taking requests and
  // exit non-zero, so a supervisor (Docker's restart policy, systemd) starts the server again.
  database.onLost((error) => {
    closing = true;
    app.log.fatal({ err: error }, 'the embedded database stopped; exiting so the server can be restarted');
    app.server.close();
    process.exit(1);
  });

  const devProviders = devProvidersIn(config);
  if (process.env.NODE_ENV === 'production' && devProviders.length > 0) {
    app.log.warn(
      { devProviders },
      `NODE_ENV=production with offline stand-ins (${devProviders.join(', ')}): SMS codes go to this log and the WeChat scan and face check are simulated, so anyone can sign in. Configure the real providers (README, Configuration).`,
    );
  }
  // Migration 0001 only warns inside PostgreSQL's own log when the extension is missing; say it
  // here, at every start, where whoever runs Athena looks (docs/postgres.md).
  if ((await database.executeSql("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).rows.length === 0) {
    app.log.warn(
      'pgvector is not installed in this database: knowledge bases are searched by full text only and no vectors are made (docs/postgres.md)',
    );
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    { database: database.kind, sms: app.modules.auth.smsProvider.name, url: config.PUBLIC_URL },
    `Athena is running at ${config.PUBLIC_URL}`,
  );
  noticeOnTerminal(
    `\n  Athena is running: open ${config.PUBLIC_URL}\n` +
      (app.modules.auth.smsProvider.name === 'dev'
        ? '  Sign in with any mainland mobile number; the code is printed here (dev SMS provider).\n'
        : ''),
  );
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
