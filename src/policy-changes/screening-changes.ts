import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { screenedTripOf } from '../screening/fingerprint.js';
import type { TravellerScreening } from '../screening/model.js';

/**
 * An amendment that changes what the screenings were assessed for (the screening area's rule: the
 * destinations, the days of cover, the plan) or who travels needs a new screening of the screened
 * travellers; one that keeps them (the same trip a week later, an option) keeps it.
 */
function fingerprint(input: QuoteInput, planCode: string): string {
  const { destinations, days } = screenedTripOf(input);
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
