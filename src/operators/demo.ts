import type { AppContext } from '../context.js';
import { createOperator } from './accounts.js';
import { operatorDepsFor } from './deps.js';
import { UsernameTaken } from './errors.js';
import { OPERATOR_ROLES, type OperatorRole } from './model.js';
import { findOperatorByUsername } from './repository.js';

/** The demo operator of a role (documented in the README): `demo-senior-underwriter` … */
export const demoOperatorUsername = (role: OperatorRole) => `demo-${role.toLowerCase().replace(/_/g, '-')}`;
export const demoOperatorPassword = (role: OperatorRole) => `${role}-console-demo-pass`;

/**
 * One demo operator per role, with a published password and no second factor: staging only (the
 * caller checks DEMO_DATA, which production refuses; and production refuses any operator without a
 * second factor at sign-in, so a demo operator left in a database that later runs as production
 * cannot sign in). Idempotent; another process starting at the same moment may win an insert.
 */
export async function seedDemoOperators(context: AppContext): Promise<void> {
  if (context.config.env === 'production') return;
  const deps = operatorDepsFor(context);
  for (const role of OPERATOR_ROLES) {
    const username = demoOperatorUsername(role);
    if (await findOperatorByUsername(context.db, username)) continue;
    await createOperator(deps, {
      username,
      displayName: `Demo ${role.toLowerCase().replace(/_/g, ' ')}`,
      role,
      password: demoOperatorPassword(role),
      secondFactor: false,
      isDemo: true,
    }).catch((error: unknown) => {
      if (!(error instanceof UsernameTaken)) throw error;
    });
  }
}
