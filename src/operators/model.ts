/**
 * The insurer's own people (issue 31): operators, separate from partner users, each with one role.
 * What a role may do is this one table; the console's guard and every operator service ask `may`.
 */
export const OPERATOR_ROLES = ['UNDERWRITER', 'SENIOR_UNDERWRITER', 'SUPPORT', 'READ_ONLY'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** An operator as services and pages see it (never its password hash or second-factor secret). */
export interface Operator {
  readonly id: number;
  readonly username: string;
  readonly displayName: string;
  readonly role: OperatorRole;
}

/** Everything an operator can do in the console, by name. */
export const OPERATOR_ACTIONS = [
  /** See the referral queue and a referral's quote, rules and outcome. */
  'referral.read',
  /** Approve, decline or ask for information on a referral within the brand's underwriter limit. */
  'referral.decide',
  /** Decide a referral above the underwriter limit, and give the second approval above the threshold. */
  'referral.decide_above_limit',
  /** See a screening's conditions (health data): underwriters only. */
  'screening.conditions.read',
  /** Search policies and read a policy's page (transactions, documents, e-mails, events, notes). */
  'policy.read',
  /** Add a note to a policy transaction. */
  'note.add',
  /** Resend a policy's documents. */
  'document.resend',
  /** Retry a failed e-mail or webhook delivery. */
  'delivery.retry',
  /** Resolve a policy change left in ATTENTION. */
  'change.resolve',
  /** Disable or re-enable a partner's user. */
  'partner_user.manage',
  /** Re-enable a disabled webhook endpoint. */
  'webhook_endpoint.manage',
  /** Read the operators' audit trail. */
  'audit.read',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

const READ: readonly OperatorAction[] = ['referral.read', 'policy.read', 'audit.read'];
const SUPPORT: readonly OperatorAction[] = [
  ...READ,
  'note.add',
  'document.resend',
  'delivery.retry',
  'change.resolve',
  'partner_user.manage',
  'webhook_endpoint.manage',
];
const UNDERWRITER: readonly OperatorAction[] = [...READ, 'note.add', 'referral.decide', 'screening.conditions.read'];

const PERMISSIONS: Readonly<Record<OperatorRole, ReadonlySet<OperatorAction>>> = {
  READ_ONLY: new Set(READ),
  SUPPORT: new Set(SUPPORT),
  UNDERWRITER: new Set(UNDERWRITER),
  SENIOR_UNDERWRITER: new Set([...UNDERWRITER, 'referral.decide_above_limit']),
};

/** Whether the operator's role allows the action. */
export function may(operator: Pick<Operator, 'role'>, action: OperatorAction): boolean {
  return PERMISSIONS[operator.role].has(action);
}

/** One entry of the append-only audit trail: who did what to which object, when, and why. */
export interface OperatorActionRecord {
  readonly operatorId: number;
  /** What was done, e.g. `referral.approve`, `note.add`, `change.resolve`, `operator.sign_in`. */
  readonly action: string;
  /** The kind of object acted on, e.g. `referral`, `policy_detail`, `policy_change`, `partner_user`. */
  readonly subjectType: string;
  readonly subjectId: string;
  /** The object's relevant fields before and after (JSON-able; never health answers or card numbers). */
  readonly before?: unknown;
  readonly after?: unknown;
  /** The operator's reason, as typed or chosen. */
  readonly reason?: string;
  readonly at: string;
}
