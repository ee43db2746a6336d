import type { AppConfig } from './config/config.js';
import type { Db } from './db/database.js';

/** The current instant; passed in so rules that depend on time are testable. */
export type Clock = () => Date;

/** What every area's routes receive: configuration, the database and the clock. */
export interface AppContext {
  readonly config: AppConfig;
  readonly db: Db;
  readonly clock: Clock;
  /**
   * Test hook, never set by the server or the CLI (and ignored when APP_ENV=production): called at
   * every crash point of the money flow with its step, e.g. to fail the request there as a lost
   * database connection would.
   */
  readonly crashHook?: (step: string) => void;
}
