import type { AppContext } from '../context.js';
import { currentOperator, signOutEverywhere } from './accounts.js';
import { operatorDepsFor } from './deps.js';
import type { Operator } from './model.js';
import { OperatorSessionStore } from './session-store.js';
import { signIn, type SignInCredentials } from './sign-in.js';

/**
 * What the console plugin needs of this area (console/operators-port.ts `ConsoleOperators`, which
 * this object satisfies): sign-in, the session store, who a session belongs to, sign out everywhere.
 */
export function consoleOperatorsFor(context: AppContext) {
  const deps = operatorDepsFor(context);
  return {
    sessions: new OperatorSessionStore(context.db, context.clock),
    signIn: (credentials: SignInCredentials) => signIn(deps, credentials),
    current: (operatorId: number, signedInAt: string) => currentOperator(context.db, operatorId, signedInAt),
    signOutEverywhere: (operator: Operator, at: string) => signOutEverywhere(deps, operator, at),
  };
}
