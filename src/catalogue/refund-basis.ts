/**
 * How a cancellation is refunded. A plan's servicing rules (servicing.yaml) name one of the rule
 * bases before and after departure; `COOLING_OFF` is never named there: it is judged before them
 * (`policy-changes/rules.ts`). The contract's `RefundBasis` schema is built from `REFUND_BASES`.
 */
export const RULE_REFUND_BASES = ['PRO_RATA', 'NONE'] as const;
export type RuleRefundBasis = (typeof RULE_REFUND_BASES)[number];

export const REFUND_BASES = ['COOLING_OFF', ...RULE_REFUND_BASES] as const;
export type RefundBasis = (typeof REFUND_BASES)[number];
