import { buildApp } from './app.ts';
import { ConfigError, loadConfig, MIGRATIONS_DIR } from './config.ts';
import { loadMasterKey } from './platform/crypto.ts';
import { openDatabase } from './platform/db/database.ts';
import { drainStreams } from './platform/http/open-streams.ts';
import { startJobs } from './platform/jobs.ts';
import { devProvidersIn, providersFromConfig } from './providers.ts';

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
  // A stop is bounded (docs/architecture.md, "Stopping"): the job queue gets its own 10 s, streams
  // the grace period and then a few seconds to close after being interrupted; past that, leave anyway.
  const hardStopMs = config.SHUTDOWN_GRACE_MS + 20_000;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down');
    setTimeout(() => {
      app.log.error({ hardStopMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, hardStopMs).unref();
    try {
      // Jobs first: workers hand unfinished work (units being indexed) back to the queue while the
      // file-reader threads they use are still there (closing the app closes those threads).
      await jobs.stop();
      // Stops accepting at once; resolves when every connection, open streams included, is gone.
      const closed = app.close();
      // Awaited below; this keeps a rejection while streams drain from going unhandled.
      closed.catch(() => {});
      await drainStreams(app.server, config.SHUTDOWN_GRACE_MS, app.log);
      await closed;
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

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
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
