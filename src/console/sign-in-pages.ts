import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { recordOperatorAction } from '../operators/audit-repository.js';
import type { Db } from '../db/database.js';
import { csrfField, seeOther, sendConsolePage } from './kit.js';
import type { ConsoleOperators, SignInOutcome } from './operators-port.js';

const REFUSALS: Record<Extract<SignInOutcome, { refused: string }>['refused'], string> = {
  // One sentence for an unknown name, a wrong password and a wrong code: a refusal reveals nothing.
  CREDENTIALS: 'The username, password or one-time code is not right.',
  LOCKED: 'Too many failed attempts: this account is locked for a while. Ask an administrator to unlock it sooner.',
  SECOND_FACTOR_REQUIRED: 'This account has no second factor yet: ask an administrator to set one up.',
};

interface SignInForm {
  readonly username?: string;
  readonly password?: string;
  readonly code?: string;
}

function signInPage(reply: FastifyReply, request: FastifyRequest, status: number, problem?: string, username = '') {
  return sendConsolePage(reply, request, {
    status,
    title: 'Sign in',
    main: html`<h1>Sign in</h1>
      ${problem ? html`<div class="notice" role="alert" id="problem"><p>${problem}</p></div>` : ''}
      <form method="post" action="/console/sign-in">
        ${csrfField(reply)}
        <div class="field">
          <label for="username">Username</label>
          <input id="username" name="username" autocomplete="username" required value="${username}" />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <div class="field">
          <label for="code">One-time code</label>
          <p class="hint" id="code-hint">The 6 digits your authenticator app shows for this console.</p>
          <input
            id="code"
            name="code"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]{6}"
            aria-describedby="code-hint"
          />
        </div>
        <button class="button" type="submit">Sign in</button>
      </form>`,
  });
}

/** Sign-in, sign-out (here or everywhere), the account page and the console's home. */
export function registerSignInPages(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; operators: ConsoleOperators },
): void {
  app.get('/sign-in', (request, reply) => signInPage(reply, request, 200));

  app.post('/sign-in', async (request, reply) => {
    const form = (request.body ?? {}) as SignInForm;
    const username = (form.username ?? '').trim();
    const outcome = await deps.operators.signIn({
      username,
      password: form.password ?? '',
      ...(form.code ? { code: form.code.trim() } : {}),
    });
    if ('refused' in outcome) return signInPage(reply, request, 401, REFUSALS[outcome.refused], username);
    // A new session id at sign-in: an id fixed before it (by an attacker) never becomes signed in.
    await request.session.regenerate();
    const at = deps.clock().toISOString();
    request.session.operatorId = outcome.signedIn.id;
    request.session.signedInAt = at;
    request.session.lastSeenAt = at;
    return seeOther(reply, '/console');
  });

  app.get('/', (request, reply) =>
    sendConsolePage(reply, request, {
      title: 'Console',
      main: html`<h1>Console</h1>
        <p>Signed in as ${request.operator.displayName} (${request.operator.role}).</p>`,
    }),
  );

  app.get('/account', (request, reply) =>
    sendConsolePage(reply, request, {
      title: 'Your account',
      main: html`<h1>Your account</h1>
        <dl class="facts">
          <dt>Username</dt>
          <dd>${request.operator.username}</dd>
          <dt>Role</dt>
          <dd>${request.operator.role}</dd>
          <dt>Signed in at</dt>
          <dd>${request.session.signedInAt}</dd>
        </dl>
        <div class="actions">
          <form method="post" action="/console/sign-out">
            ${csrfField(reply)}<button class="button" type="submit">Sign out</button>
          </form>
          <form method="post" action="/console/sign-out-everywhere">
            ${csrfField(reply)}<button class="button secondary" type="submit">Sign out everywhere</button>
          </form>
        </div>`,
    }),
  );

  app.post('/sign-out', async (request, reply) => {
    await recordOperatorAction(deps.db, {
      operatorId: request.operator.id,
      action: 'operator.sign_out',
      subjectType: 'operator',
      subjectId: String(request.operator.id),
      at: deps.clock().toISOString(),
    });
    await request.session.destroy();
    return seeOther(reply, '/console/sign-in');
  });

  app.post('/sign-out-everywhere', async (request, reply) => {
    const at = deps.clock().toISOString();
    await deps.operators.signOutEverywhere(request.operator, at);
    await request.session.destroy();
    return seeOther(reply, '/console/sign-in');
  });
}
