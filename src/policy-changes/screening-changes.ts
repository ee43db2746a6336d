import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { TravellerScreening } from '../screening/model.js';

/**
 * A screening was assessed for one trip: its destinations, its length, the travellers and the plan.
 * An amendment that changes any of them on a policy with screened travellers needs a new
 * screening; one that keeps them (e.g. the same trip a week later, or an option) keeps it.
 */
function fingerprint(input: QuoteInput, planCode: string): string {
  const destinations = [...new Set((input.destinationCountryCodes ?? []).map((c) => c.toUpperCase()))].sort();
  const end = input.quoteType === 'MULTITRIP' ? input.coverEndDate : input.returnDate;
  const days =
    input.departureDate && end ? Math.round((Date.parse(end) - Date.parse(input.departureDate)) / 86_400_000) + 1 : 0;
  const travellers = (input.policyHolders ?? []).map((h) => h.guid ?? '').sort();
  return JSON.stringify({ destinations, days, travellers, planCode });
}

export function screeningChangeProblems(
  current: QuoteInput,
  next: QuoteInput,
  plans: { current: string; next: string },
  screenings: readonly TravellerScreening[],
): Notification[] {
  const guids = new Set((current.policyHolders ?? []).map((h) => h.guid));
  const screened = screenings.some((s) => s.status !== 'IN_PROGRESS' && guids.has(s.travellerGuid));
  if (!screened || fingerprint(current, plans.current) === fingerprint(next, plans.next)) return [];
  return [
    problem(
      'SCREENING_REQUIRED',
      'This change of trip, destinations, travellers or plan needs a new medical screening of the screened travellers.',
      'input.policyHolders',
    ),
  ];
}
