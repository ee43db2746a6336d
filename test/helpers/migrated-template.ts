import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connectDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { runSchemaPrefix } from './database.js';

/**
 * A database migrated once per run by test/global-setup.ts, which each test file that wants a
 * migrated database copies (helpers/migrated-database.ts) instead of running every migration
 * itself: a SQLite file, or a PostgreSQL database to name as `CREATE DATABASE … TEMPLATE`.
 */
export interface MigratedTemplate {
  readonly sqlitePath?: string;
  readonly postgresDatabase?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    migratedTemplate: MigratedTemplate;
  }
}

/** `url` with its database name replaced by `name`. */
export function urlOfDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** Copies the migrated SQLite template to `path` (its WAL too, should one be left). */
export function copySqliteTemplate(template: string, path: string): void {
  copyFileSync(template, path);
  if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${path}-wal`);
}

/** Migrates the run's template on the suite's engine; `dispose` removes a SQLite template (PostgreSQL's: see dropRunDatabases). */
export async function buildMigratedTemplate(
  postgresUrl: string | undefined,
  runPid: number,
): Promise<{ template: MigratedTemplate; dispose: () => void }> {
  if (postgresUrl) {
    const name = `${runSchemaPrefix(runPid)}template`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    // No connection may stay open on a template: its copies would be refused.
    const db = connectDatabase({ kind: 'postgres', url: urlOfDatabase(postgresUrl, name), poolSize: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    return { template: { postgresDatabase: name }, dispose: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'partner-api-template-'));
  const path = join(dir, 'template.sqlite');
  const db = connectDatabase({ kind: 'sqlite', path });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return { template: { sqlitePath: path }, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Drops the `test_<run pid>_…` databases chosen by `shouldDrop` (the template, and copies a test
 * file did not drop itself), a few at once: each drop waits for a checkpoint.
 */
export async function dropRunDatabases(url: string, shouldDrop: (runPid: number) => boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let names: string[];
  try {
    const { rows } = await admin.query<{ name: string }>(
      `select datname as name from pg_database where datname ~ '^test_[0-9]+_'`,
    );
    names = rows.map((r) => r.name).filter((name) => shouldDrop(Number(/^test_(\d+)_/.exec(name)?.[1])));
  } finally {
    await admin.end();
  }
  const lanes = Array.from({ length: Math.min(4, names.length) }, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let name = names.pop(); name !== undefined; name = names.pop()) {
        await client.query(`drop database if exists ${name} with (force)`);
      }
    } finally {
      await client.end();
    }
  });
  await Promise.all(lanes);
}
