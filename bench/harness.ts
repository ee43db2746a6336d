import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { load, type LoadResult } from './load.js';
import type { BenchApi, BenchRequest } from './requests.js';
import type { ServerProcess } from './server.js';

export interface FreshDatabase {
  readonly env: Record<string, string>;
  readonly label: string;
  drop(): Promise<void>;
}

/** A fresh database for the run: a temp SQLite file or a new PostgreSQL schema. */
export async function freshDatabase(usePostgres: boolean): Promise<FreshDatabase> {
  if (!usePostgres) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    return {
      env: { SQLITE_PATH: join(dir, 'bench.sqlite') },
      label: 'SQLite (WAL, durable group commit)',
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
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
      const res = await fetch(`${url}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      return {
        status: res.status,
        body: bytes.toString('utf8'),
        bytes,
        contentType: res.headers.get('content-type') ?? 'application/json',
      };
    },
  };
}

/** Drives `request` (each time the next of its supply, if it has one) for the settings' duration or number of requests. */
export async function drive(
  url: string,
  request: BenchRequest,
  settings: { connections: number; durationSeconds: number; requests?: number },
): Promise<LoadResult> {
  const { supply } = request;
  const before = supply?.exhausted ?? 0;
  const result = await load({
    url: `${url}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    ...(supply ? { next: () => supply.next() } : {}),
    ...settings,
  });
  return supply ? { ...result, supplyExhausted: supply.exhausted - before } : result;
}

/** A load result with the server's own CPU cost per answered request. */
export interface MeasuredLoad extends LoadResult {
  /**
   * Server CPU (user + system) per answered request in µs, from /proc: unlike req/s it hardly
   * moves when neighbours take CPU, so it is the number to compare across noisy runs.
   */
  readonly cpuMicrosPerRequest?: number;
  /**
   * Seconds after the load until the work it left behind was done (`settle`: the outbox worker
   * delivering what every request enqueued: documents, events); its CPU is counted in `cpuMicrosPerRequest`.
   */
  readonly settleSeconds?: number;
}

/**
 * Runs `load` against `server` and adds the server's CPU time per request it answered; with
 * `settle`, the CPU until it resolves too (work the requests left to a background worker).
 */
export async function measured(
  server: ServerProcess,
  load: () => Promise<LoadResult>,
  settle?: () => Promise<void>,
): Promise<MeasuredLoad> {
  const before = server.cpuSeconds();
  const result = await load();
  const loaded = performance.now();
  await settle?.();
  const settled = settle ? { settleSeconds: (performance.now() - loaded) / 1000 } : {};
  const after = server.cpuSeconds();
  if (before === undefined || after === undefined || result.total === 0) return { ...result, ...settled };
  return { ...result, ...settled, cpuMicrosPerRequest: ((after - before) * 1e6) / result.total };
}
