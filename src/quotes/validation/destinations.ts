import type { Notification } from '../../kernel/notifications/notification.js';
import type { Destination, RestrictionRules } from '../ports.js';
import { problem, warning } from '../../kernel/notifications/problems.js';

/** Destination codes: known, not sanctioned, a product exists; unsafe ones only warn. Returns the rating regions. */
export function validateDestinations(
  codes: readonly string[],
  known: readonly Destination[],
  restrictions: RestrictionRules | undefined,
  homeCountryCode: string | undefined,
  out: Notification[],
): string[] {
  const byCode = new Map(known.map((d) => [d.code.toUpperCase(), d]));
  const regions = new Set<string>();
  if (restrictions && homeCountryCode && restrictions.sanctionedCountryCodes.includes(homeCountryCode)) {
    out.push(
      problem(
        'HOME_COUNTRY_SANCTIONED',
        'Travel from this country cannot be insured.',
        'input.homeAddress.countryCode',
        homeCountryCode,
      ),
    );
  }
  codes.forEach((raw, index) => {
    const property = `input.destinationCountryCodes[${index}]`;
    const code = raw.toUpperCase();
    const destination = byCode.get(code);
    if (!destination) {
      out.push(problem('DESTINATION_UNKNOWN', `Destination '${raw}' is not a known destination code.`, property, raw));
      return;
    }
    if (restrictions?.sanctionedCountryCodes.includes(code)) {
      out.push(
        problem(
          'DESTINATION_SANCTIONED',
          `Travel to ${destination.name} cannot be insured: it is under sanctions.`,
          property,
          raw,
          { name: destination.name },
        ),
      );
      return;
    }
    if (restrictions?.noProductCountryCodes.includes(code)) {
      out.push(
        problem('DESTINATION_NO_PRODUCT', `No product covers travel to ${destination.name}.`, property, raw, {
          name: destination.name,
        }),
      );
      return;
    }
    if (restrictions?.unsafeCountryCodes.includes(code)) {
      out.push(
        warning(
          'DESTINATION_UNSAFE',
          `Travel to ${destination.name} may be restricted; check government travel advice, cover may be limited.`,
          property,
          raw,
          {
            name: destination.name,
          },
        ),
      );
    }
    regions.add(destination.regionCode);
  });
  return [...regions];
}
