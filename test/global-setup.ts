import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildMigratedTemplate, dropRunDatabases } from './helpers/migrated-template.js';

/** Drops the `test_<run pid>_…` schemas (named by runSchemaPrefix in helpers/database.ts) chosen by `shouldDrop`. */
async function dropSchemas(url: string, shouldDrop: (runPid: number) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname ~ '^test_[0-9]+_'`,
    );
    for (const { name } of rows) {
      const runPid = Number(/^test_(\d+)_/.exec(name)?.[1]);
      if (shouldDrop(runPid)) await client.query(`drop schema if exists ${name} cascade`);
    }
  } finally {
    await client.end();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Migrates the run's template once (helpers/migrated-template.ts): test files copy it rather than
 * each running every migration. PostgreSQL test schemas and databases are dropped once the whole
 * run is over, not by each test file: a drop while another file's migrator lists the catalogue
 * makes that file fail. At start, those of earlier runs that are no longer running are cleaned up too.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  const ofStoppedRuns = (runPid: number) => runPid !== process.pid && !isRunning(runPid);
  if (url) {
    await dropSchemas(url, ofStoppedRuns);
    await dropRunDatabases(url, ofStoppedRuns);
  }
  const { template, dispose } = await buildMigratedTemplate(url, process.pid);
  project.provide('migratedTemplate', template);
  return async () => {
    dispose();
    if (url) {
      await dropSchemas(url, (runPid) => runPid === process.pid);
      await dropRunDatabases(url, (runPid) => runPid === process.pid);
    }
  };
}
