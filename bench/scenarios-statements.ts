import { STATEMENT_TRANSACTIONS, statementRequest } from './statement-fixture.js';
import type { Scenario } from './scenario.js';

/** The rows of partner statements: a closed month of 10,000 transactions, as JSON and as CSV. */
export const STATEMENT_SCENARIOS: Scenario[] = [
  {
    name: 'statementJson',
    connections: 4,
    description: `GET /partners/v1/{brand}/statements/{yyyy-mm}: last month's statement of the demo partner, ${String(STATEMENT_TRANSACTIONS)} transactions (half on account) seeded into the policy tables, as JSON; 4 connections (a report, not a burst).`,
    prepare: (api, _fixtures, run) => statementRequest(api, run.env, 'application/json'),
  },
  {
    name: 'statementCsv',
    connections: 4,
    description: `The statementJson row with \`Accept: text/csv\`: the same ${String(STATEMENT_TRANSACTIONS)} transactions as CSV rows.`,
    prepare: (api, _fixtures, run) => statementRequest(api, run.env, 'text/csv'),
  },
];
