import type { SessionStore } from '@fastify/session';
import type { Operator } from '../operators/model.js';
import type { SignInOutcome } from '../operators/sign-in.js';

/** What the console needs of the operators area: sign-in, the session store, who a session belongs to. */
export interface ConsoleOperators {
  /** Where sessions live (the database: a restart or a second process keeps them). */
  readonly sessions: SessionStore;
  /** Checks the password and the second factor; a refusal never says which part was wrong. */
  signIn(credentials: { username: string; password: string; code?: string }): Promise<SignInOutcome>;
  /** The operator of a session, or undefined when disabled, or signed out everywhere since `signedInAt`. */
  current(operatorId: number, signedInAt: string): Promise<Operator | undefined>;
  /** Ends every session of the operator (this one included). */
  signOutEverywhere(operator: Operator, at: string): Promise<void>;
}

export type { SignInOutcome };

declare module 'fastify' {
  interface Session {
    /** Set at sign-in (after the session id is regenerated); absent on an anonymous session. */
    operatorId?: number;
    signedInAt?: string;
    lastSeenAt?: string;
    /** The CSRF secret (@fastify/csrf-protection keeps it in the session). */
    _csrf?: string;
  }
}
