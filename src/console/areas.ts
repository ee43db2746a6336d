import type { ConsolePages } from './kit.js';
import { policyPages } from './policy-pages.js';
import { referralPages } from './referral-pages.js';
import { workQueuePages } from './work-pages.js';

/** The console's page plugins, mounted under /console behind its session guard (console/plugin.ts). */
export const CONSOLE_AREAS: readonly ConsolePages[] = [referralPages, policyPages, workQueuePages];
