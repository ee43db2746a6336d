import { ConfigError, loadConfig } from '../../src/config/config.js';

/** What `loadConfig` refuses in `env` (each problem as it names it); empty when it accepts it. */
export function configProblemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
