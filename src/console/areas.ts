import type { ConsolePages } from './kit.js';
import { workQueuePages } from './work-pages.js';

/** The console's page plugins, mounted under /console behind its session guard (console/plugin.ts). */
export const CONSOLE_AREAS: readonly ConsolePages[] = [workQueuePages];
