import { buildApp } from './app.ts';
import { ConfigError, loadConfig, MIGRATIONS_DIR } from './config.ts';
import { loadMasterKey } from './platform/crypto.ts';
import { openDatabase } from './platform/db/database.ts';
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
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      // Workers hand unfinished work (units being indexed) back to the queue before pg-boss stops.
      await jobs.stop();
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
