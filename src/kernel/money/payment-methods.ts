/**
 * How a policy's money is paid (the purchase's `paymentMethod`, docs/api-contract.md "Payments"):
 * `CARD`, a tokenised card through the brand's card gateway; `ON_ACCOUNT`, owed by the partner and
 * settled on its monthly statement (partners with `isOnAccountPurchaseEnabled`). A policy's
 * amendments and refunds follow the method it was bought with.
 */
export const PAYMENT_METHODS = ['CARD', 'ON_ACCOUNT'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const isPaymentMethod = (value: string): value is PaymentMethod =>
  (PAYMENT_METHODS as readonly string[]).includes(value);
