import type { Notification } from '../../kernel/notifications/notification.js';
import type { PricingTraveller } from '../../pricing/request.js';
import type { AgeRules, QuoteConfiguration } from '../ports.js';
import type { PolicyHolderInput } from '../schemas.js';
import { ageOn, parseDate, type CalendarDate } from '../../kernel/calendar/dates.js';
import { problem } from '../../kernel/notifications/problems.js';

export interface TravellerFacts {
  /** Every holder with a known age; shorter than the holder list when some age is missing or wrong. */
  travellers: PricingTraveller[];
  allAgesKnown: boolean;
}

/** The age of one holder at the quote date (AGEATQUOTE): from `dateOfBirth`, else `age`. */
function holderAge(
  holder: PolicyHolderInput,
  path: string,
  quoteDate: CalendarDate,
  out: Notification[],
): number | undefined {
  if (holder.dateOfBirth !== undefined) {
    const dob = parseDate(holder.dateOfBirth);
    if (!dob) {
      out.push(
        problem(
          'INVALID_DATE',
          'dateOfBirth is not a real date in the form YYYY-MM-DD.',
          `${path}.dateOfBirth`,
          holder.dateOfBirth,
        ),
      );
      return undefined;
    }
    if (dob.epochDay > quoteDate.epochDay) {
      out.push(
        problem(
          'DATE_OF_BIRTH_IN_FUTURE',
          'dateOfBirth is after the quote date.',
          `${path}.dateOfBirth`,
          holder.dateOfBirth,
        ),
      );
      return undefined;
    }
    const age = ageOn(dob, quoteDate);
    if (holder.age !== undefined && holder.age !== age) {
      out.push(
        problem('AGE_MISMATCH', 'age does not match dateOfBirth at the quote date.', `${path}.age`, holder.age, {
          ageAtQuote: age,
        }),
      );
    }
    return age;
  }
  if (holder.age === undefined) return undefined;
  if (holder.age < 0) {
    out.push(problem('AGE_OUT_OF_RANGE', 'age cannot be negative.', `${path}.age`, holder.age));
    return undefined;
  }
  return holder.age;
}

function checkCount(
  count: number,
  min: number,
  max: number,
  what: string,
  property: string,
  out: Notification[],
): void {
  if (count < min)
    out.push(
      problem(`TOO_FEW_${what}`, `At least ${min} ${what.toLowerCase()} needed.`, property, count, { min, count }),
    );
  if (count > max)
    out.push(
      problem(`TOO_MANY_${what}`, `At most ${max} ${what.toLowerCase()} allowed.`, property, count, { max, count }),
    );
}

/** Counts, ages and primary holder of `input.policyHolders`. Missing ages are a stage requirement, not an error here. */
export function validateTravellers(
  holders: readonly PolicyHolderInput[],
  configuration: QuoteConfiguration,
  rules: AgeRules | undefined,
  quoteDate: CalendarDate,
  out: Notification[],
): TravellerFacts {
  const list = 'input.policyHolders';
  const adults = holders.filter((h) => h.isDependent !== true).length;
  const dependents = holders.length - adults;
  checkCount(
    adults,
    rules?.minTravellers ?? configuration.minTravellers,
    rules?.maxTravellers ?? configuration.maxTravellers,
    'TRAVELLERS',
    list,
    out,
  );
  checkCount(
    dependents,
    rules?.minDependents ?? configuration.minDependents,
    rules?.maxDependents ?? configuration.maxDependents,
    'DEPENDENTS',
    list,
    out,
  );
  const maxHolders = rules?.maxPolicyHolders ?? configuration.maxPolicyHolders;
  if (holders.length > maxHolders) {
    out.push(
      problem('TOO_MANY_POLICY_HOLDERS', `At most ${maxHolders} policy holders allowed.`, list, holders.length, {
        max: maxHolders,
      }),
    );
  }
  if (holders.filter((h) => h.isPrimary === true).length > 1) {
    out.push(problem('MULTIPLE_PRIMARY_HOLDERS', 'Only one policy holder can be primary.', list));
  }

  const travellers: PricingTraveller[] = [];
  holders.forEach((holder, index) => {
    const path = `${list}[${index}]`;
    const dependent = holder.isDependent === true;
    if (dependent && holder.isPrimary === true) {
      out.push(
        problem(
          'DEPENDENT_CANNOT_BE_PRIMARY',
          'A dependent cannot be the primary policy holder.',
          `${path}.isPrimary`,
          true,
        ),
      );
    }
    const age = holderAge(holder, path, quoteDate, out);
    if (age === undefined) return;
    if (rules) {
      const [min, max] = dependent
        ? [rules.minDependentAge, rules.maxDependentAge]
        : [rules.minTravellerAge, rules.maxTravellerAge];
      if (age < min || age > max) {
        const code = dependent ? 'DEPENDENT_AGE_OUT_OF_RANGE' : 'TRAVELLER_AGE_OUT_OF_RANGE';
        out.push(
          problem(
            code,
            `Age at the quote date must be between ${min} and ${max}.`,
            `${path}.${holder.dateOfBirth ? 'dateOfBirth' : 'age'}`,
            holder.dateOfBirth ?? age,
            { min, max, age },
          ),
        );
        return;
      }
    }
    travellers.push({ guid: holder.guid ?? `holder-${index + 1}`, age, isDependent: dependent });
  });
  return { travellers, allAgesKnown: travellers.length === holders.length };
}
