import { Type, type Static } from 'typebox';
import { BrandCodeParam } from '../http/schemas.js';
import { POLICY_STATUSES, PolicyActionTypeSchema } from './schemas-detail.js';
import {
  Address,
  Audit,
  AuthorizationPolicy,
  Currency,
  DependentShortSummary,
  ExternalMembership,
  PlanShortSummary,
  PolicyFinancialValue,
  TravellerShortSummary,
} from './schemas-shared.js';

export * from './schemas-detail.js';
export * from './schemas-shared.js';

const opt = Type.Optional;
const long = (description?: string) => Type.Integer(description ? { description } : {});
const str = (description?: string) => Type.String(description ? { description } : {});
const utc = (what: string) => str(`${what}, UTC ISO 8601 (e.g. \`2026-11-30T13:00:00.000Z\`).`);
const local = (what: string) =>
  str(`${what}, wall-clock time in \`presentationTimeZoneCode\` without offset (e.g. \`2026-12-01T00:00:00.000\`).`);

export const PolicySummary = Type.Object(
  {
    brandCode: opt(BrandCodeParam),
    policyDetailId: opt(long('Id of the latest transaction.')),
    policyHeaderId: opt(long()),
    policyNumber: opt(str()),
    sequenceNumber: opt(Type.Integer({ description: 'Latest version of the policy (1 after purchase).' })),
    policyStatusId: opt(long('1 Active, 2 Cancelled.')),
    policyStatus: opt(Type.Enum([...POLICY_STATUSES], { type: 'string', description: 'Status of the policy.' })),
    detailStatusId: opt(long('1 Active, 2 Cancelled, 3 Authorised (a purchase an underwriter approved after a referral).')),
    detailStatus: opt(str('Status of the latest transaction; mainly for policies in a manual authorisation workflow.')),
    policyActionTypeId: opt(long('1 Purchase, 2 Amendment, 3 Cancellation.')),
    policyActionType: opt(PolicyActionTypeSchema('The last action on the policy.')),
    plan: opt(PlanShortSummary),
    destinationRegion: opt(str()),
    destinationCountries: opt(str('Destination names, comma separated.')),
    destinationCountryCodes: opt(str('Extended ISO-3166 alpha-3 codes, comma separated.')),
    referencePolicyWordingId: opt(long()),
    regulatoryWordingTranslationName: opt(str()),
    displayDestinationDescription: opt(str()),
    currency: opt(Currency),
    presentationTimeZoneCode: opt(
      str('IANA time zone of the `...LocalDateTime` fields (from the home country or province).'),
    ),
    policyIssuedAt: opt(utc('When the policy was issued')),
    policyIssuedLocalDateTime: opt(local('When the policy was issued')),
    detailIssuedAt: opt(utc('When the latest transaction was made')),
    detailIssuedLocalDateTime: opt(local('When the latest transaction was made')),
    departureAt: opt(utc('Start of cover (first moment of the departure day in the policy zone)')),
    departureLocalDateTime: opt(local('Start of cover')),
    coverEndAt: opt(utc('End of cover (23:59:59 of the last day in the policy zone)')),
    coverEndLocalDateTime: opt(local('End of cover')),
    address: opt(Address),
    policyAudit: opt(Audit),
    detailAudit: opt(Audit),
    customerId: opt(long('The customer user the policy belongs to (0 when bought without a customer account).')),
    travellers: opt(Type.Array(TravellerShortSummary)),
    dependents: opt(Type.Array(DependentShortSummary)),
    transactionValueAggregateAmount: opt(PolicyFinancialValue),
    displayTransactionValueAggregateAmount: opt(str('The aggregate amount formatted for display, e.g. `$123.45`.')),
    authorizationPolicy: opt(AuthorizationPolicy),
    policyDocumentAccessGuid: opt(str('Opaque key that gives access to the policy documents.')),
    externalMemberships: opt(Type.Array(ExternalMembership)),
    excess: opt(Type.Number({ description: 'In the policy currency’s major unit.' })),
    binderId: opt(long()),
  },
  { title: 'PolicySummary', description: 'The policy as it stands after its latest transaction (spec §2.8).' },
);
export type PolicySummary = Static<typeof PolicySummary>;

export const PolicyParams = Type.Object({
  brandCode: BrandCodeParam,
  policyNumber: Type.String({ minLength: 1, maxLength: 64, description: 'The policy number, e.g. `TIAU260000042`.' }),
});
