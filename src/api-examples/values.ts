/**
 * The values the request examples of the OpenAPI document are written with: which quote, policy,
 * change, webhook endpoint and event an example names, and the trip's dates. The committed
 * document is written with `FIXED_EXAMPLE_VALUES` (stable text to read); a staging server with demo
 * data serves its document with the values of its own demo objects (showcase.ts), so /docs
 * "Try it out" succeeds as it is filled in.
 */
export interface ExampleValues {
  readonly login: { readonly username: string; readonly password: string };
  readonly planId: number;
  /** The plan's purchase declarations (`termConditionId`s to agree). */
  readonly purchaseTerms: readonly number[];
  readonly trip: { readonly departureDate: string; readonly returnDate: string; readonly laterReturnDate: string };
  /** A priced quote to read and refine. */
  readonly quoteId: string;
  /** A quote at DETAILS to buy (on account), and the key its purchase example is sent with. */
  readonly purchase: { readonly quoteId: string; readonly idempotencyKey: string };
  /** A quote referred to an underwriter, open. */
  readonly referredQuoteId: string;
  /** A quote whose travellers opted in for screening: one not yet started, one with the first questions answered. */
  readonly screening: {
    readonly quoteId: string;
    readonly unstartedGuid: string;
    readonly answeringGuid: string;
    /** The questions the answering traveller is asked now, with an answer each. */
    readonly answers: readonly { readonly questionId: string; readonly choiceCodes: readonly string[] }[];
  };
  /** The hosted screening page of another traveller: the link's value and the first step's form token. */
  readonly screeningPage: { readonly value: string; readonly csrf: string };
  /** A policy to read, amend (a previewed amendment) and send documents of. */
  readonly policy: {
    readonly policyNumber: string;
    readonly documentAccessGuid: string;
    readonly documentId: string;
    readonly amendmentId: string;
  };
  /** Another policy with a previewed cancellation. */
  readonly cancellation: { readonly policyNumber: string; readonly cancellationId: string };
  readonly webhooks: { readonly url: string; readonly webhookId: string; readonly spareWebhookId: string };
  readonly eventId: string;
  /** A window of the event log for the range redelivery, and a month with a statement. */
  readonly eventWindow: { readonly from: string; readonly to: string };
  readonly statementMonth: string;
}

/** Stable values for the committed docs/openapi.json (a reader's example; a demo server serves its own). */
export const FIXED_EXAMPLE_VALUES: ExampleValues = {
  login: { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' },
  planId: 100102,
  purchaseTerms: [1101, 1102, 1103, 1104, 1105],
  trip: { departureDate: '2027-03-01', returnDate: '2027-03-14', laterReturnDate: '2027-03-21' },
  quoteId: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RA',
  purchase: { quoteId: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RB', idempotencyKey: 'order-q_01JD8ZQ6M4X3K9V2T7B5N1C0RB' },
  referredQuoteId: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RC',
  screening: {
    quoteId: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RD',
    unstartedGuid: 'h1',
    answeringGuid: 'h2',
    answers: [
      { questionId: 'travelMode', choiceCodes: ['AIR'] },
      { questionId: 'conditions', choiceCodes: ['TEST_COVERED'] },
    ],
  },
  screeningPage: { value: 'scr_Vb2m9QxT4kLp7RzN3cW8aYhE', csrf: 'k3Jv0c9Yw1mQ2rT8sX5bN7dF4hL6pA0e' },
  policy: {
    policyNumber: 'BACAU260004217',
    documentAccessGuid: 'pda_7kQ2mX9vB4nR8tW1cY5zL3hF',
    documentId: 'CERTIFICATE',
    amendmentId: 'amd_01JD9A2B3C4D5E6F7G8H9J0K1M',
  },
  cancellation: { policyNumber: 'BACAU260004218', cancellationId: 'can_01JD9A2B3C4D5E6F7G8H9J0K1N' },
  webhooks: {
    url: 'https://partner.example/hooks/insurance',
    webhookId: 'whe_3q2Rk7d0Tq6mYb8FvX1aLw',
    spareWebhookId: 'whe_8t4Wn1c6Zp0sLd3GyH7kQe',
  },
  eventId: 'evt_Qm9uZGF5LCAxIFNlcCAyMD',
  eventWindow: { from: '2027-02-01T00:00:00Z', to: '2027-02-02T00:00:00Z' },
  statementMonth: '2027-02',
};
