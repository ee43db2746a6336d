import { loadConfig } from '../../src/config/config.js';
import type { TestDatabase } from './database.js';

/**
 * The configuration of a real server started on a test's database to watch its recovery sweep:
 * silent, on port 0, no drain, a sweep every second; `extra` adds settings (a grace, a secret).
 */
export function sweepServerConfig(database: TestDatabase['database'], extra: Record<string, string> = {}) {
  return {
    ...loadConfig({
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      SHUTDOWN_DRAIN_MS: '0',
      PURCHASE_RECOVERY_INTERVAL_SECONDS: '1',
      ...extra,
    }),
    database,
  };
}
