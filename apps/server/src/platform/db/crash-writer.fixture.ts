// Writes pairs of rows, one transaction per pair, into the embedded database in the folder given,
// and prints each pair's number once it is committed; embedded-engine.test.ts kills this process
// with SIGKILL midway and checks that every printed pair is there, whole.
import { sql } from 'drizzle-orm';
import { openDatabase } from './database.ts';

// Never migrates: the folder is only what openDatabase asks for (argv[3], from the test).
const database = await openDatabase({
  dataDir: process.argv[2] as string,
  migrationsFolder: process.argv[3] as string,
});
await database.db.execute(sql`create table if not exists pair_a (n int primary key)`);
await database.db.execute(sql`create table if not exists pair_b (n int primary key)`);
process.stdout.write('ready\n');
for (let n = 1; ; n++) {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`insert into pair_a values (${n})`);
    await tx.execute(sql`insert into pair_b values (${n})`);
  });
  process.stdout.write(`${n}\n`);
}
