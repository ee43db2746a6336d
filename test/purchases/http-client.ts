import { expect } from 'vitest';
import { demoTrip } from '../helpers/demo-trip.js';

/** A partner talking to a real server over HTTP with the demo logins (README, "Demo data"). */
export class PartnerClient {
  /** One sign-in shared by every call: parallel sign-ins of one username beyond its attempt budget are refused (429). */
  private signIn: Promise<string> | undefined;
  constructor(
    readonly baseUrl: string,
    private readonly brand = 'brandau',
    private readonly partner = 'DEMOA',
  ) {}

  authorization(): Promise<string> {
    this.signIn ??= this.signInOnce();
    return this.signIn;
  }

  private async signInOnce(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/users/${this.brand}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'API',
        username: `${this.partner.toLowerCase()}.${this.brand}@demo.example`,
        password: `${this.partner}-${this.brand}-demo-pass`,
        customerInterfaceId: '8',
        userTypeId: '4',
      }),
    });
    expect(res.status).toBe(200);
    return `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: await this.authorization(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** A COMP quote of a December trip at stage DETAILS, and the declarations its purchase needs. */
  async readyQuote(): Promise<{ id: string; declarations: { termConditionId: number; hasAgreed: true }[] }> {
    const plan = await this.call('GET', `/products/v1/${this.brand}/plans?planCode=COMP&partnerCode=${this.partner}`);
    expect(plan.status).toBe(200);
    const terms = plan.body.purchaseTermsAndConditions as { termConditionId: number; policyActionTypeId: number }[];
    const input = demoTrip(plan.body.planId, { departureDate: '2026-12-14', returnDate: '2026-12-20' });
    const created = await this.call('POST', `/quotes/v2/${this.brand}/quote`, { stage: 'DETAILS', input });
    expect(created.status).toBe(200);
    expect(created.body.stage).toBe('DETAILS');
    return {
      id: created.body.id as string,
      declarations: terms
        .filter((t) => t.policyActionTypeId === 1)
        .map((t) => ({ termConditionId: t.termConditionId, hasAgreed: true as const })),
    };
  }

  purchase(quote: { id: string; declarations: unknown[] }, cardToken: string, headers: Record<string, string> = {}) {
    return this.call(
      'POST',
      `/quotes/v2/${this.brand}/purchase`,
      {
        quote: { id: quote.id, input: { regulatoryDeclarations: quote.declarations } },
        cardToken: { token: cardToken },
      },
      headers,
    );
  }
}
