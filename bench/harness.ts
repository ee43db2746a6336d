import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { load, type LoadResult } from './load.js';
import type { BenchApi, BenchRequest } from './scenarios.js';

export interface FreshDatabase {
  readonly env: Record<string, string>;
  readonly label: string;
  drop(): Promise<void>;
}

/** A fresh database for the run: a temp SQLite file or a new PostgreSQL schema. */
export async function freshDatabase(usePostgres: boolean): Promise<FreshDatabase> {
  if (!usePostgres) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    return { env: { SQLITE_PATH: join(dir, 'bench.sqlite') }, label: 'SQLite (WAL, synchronous=FULL)', drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
  }
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const { rows } = await admin.query<{ server_version: string }>('show server_version');
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    label: `PostgreSQL ${rows[0]?.server_version ?? ''} (synchronous_commit=on)`,
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

export function apiFor(url: string): BenchApi {
  return {
    url,
    async call(request: BenchRequest) {
      const res = await fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
      return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') ?? 'application/json' };
    },
  };
}

/** Drives `request` (each time the next of its supply, if it has one) for the settings' duration. */
export async function drive(url: string, request: BenchRequest, settings: { connections: number; durationSeconds: number }): Promise<LoadResult> {
  const { supply } = request;
  const before = supply?.exhausted ?? 0;
  const result = await load({ url: `${url}${request.path}`, method: request.method, headers: request.headers, body: request.body, ...(supply ? { next: () => supply.next() } : {}), ...settings });
  return supply ? { ...result, supplyExhausted: supply.exhausted - before } : result;
}
