import { expect } from 'vitest';
import type { BrandCode } from '../../src/kernel/brands.js';
import { publishEventHandler, type FanOut } from '../../src/events/publish.js';
import { PUBLISH_EVENT } from '../../src/events/repository.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { testWorker } from '../outbox/support.js';

export interface EventAnswer {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { policyNumber?: string; policyEventSequence?: number };
}

/** One pass of an outbox worker publishing recorded events (only that kind); answers how many. */
export async function publishEvents(t: TestApp, fanOut: FanOut = () => Promise.resolve()): Promise<number> {
  const { db, clock } = t.context;
  const worker = testWorker(db, clock, { [PUBLISH_EVENT]: publishEventHandler({ db, clock, fanOut }) });
  try {
    return await worker.runOnce();
  } finally {
    await worker.stop();
  }
}

export async function eventsCall(
  t: TestApp,
  method: 'GET' | 'POST',
  path: string,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; body?: unknown } = {},
) {
  const brand = options.brand ?? 'brandau';
  return t.app.inject({
    method,
    url: `/partners/v1/${brand}/events${path}`,
    headers: await bearerFor(t, brand, options.partner ?? 'A'),
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
}

/** Every published event of the feed, paging with `after` (`limit` per page). */
export async function wholeFeed(
  t: TestApp,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; limit?: number } = {},
): Promise<EventAnswer[]> {
  const all: EventAnswer[] = [];
  for (;;) {
    const after = all.at(-1)?.id;
    const query = new URLSearchParams({
      ...(after ? { after } : {}),
      ...(options.limit ? { limit: String(options.limit) } : {}),
    });
    const res = await eventsCall(t, 'GET', `?${query.toString()}`, options);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ events: EventAnswer[]; hasMore: boolean }>();
    all.push(...page.events);
    if (!page.hasMore) return all;
  }
}

/** A policy's events from the feed, in feed order. */
export async function eventsOfPolicy(t: TestApp, policyNumber: string): Promise<EventAnswer[]> {
  await publishEvents(t);
  return (await wholeFeed(t)).filter((e) => e.data.policyNumber === policyNumber);
}
