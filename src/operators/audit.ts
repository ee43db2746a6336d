/**
 * The `operator_id` of an audit entry no signed-in operator made: a command-line change (whoever
 * ran it is known to the host, not to the service) or a failed or locked-out sign-in attempt (whoever
 * typed it is not known to be the operator). Operator ids start at 1, so 0 is never a person.
 */
export const NO_OPERATOR = 0;
