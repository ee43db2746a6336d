import { Type } from 'typebox';
import { DIALECT_NAMES } from '../../db/dialect.js';

export const HealthResponse = Type.Object(
  { status: Type.Enum(['ok'], { type: 'string' }) },
  { title: 'HealthResponse', description: 'The process is up and serving HTTP.' },
);

export const ReadyResponse = Type.Object(
  {
    status: Type.Enum(['ready', 'unavailable', 'draining'], { type: 'string' }),
    database: Type.Enum([...DIALECT_NAMES], { type: 'string', description: 'The engine this process uses.' }),
    deliveryLagSeconds: Type.Optional(
      Type.Record(Type.String(), Type.Number({ minimum: 0 }), {
        description:
          'By outbox kind (`policy-documents`, `partner-event`, `webhook-delivery`), seconds the oldest message due ' +
          'for delivery has waited (0: none due); read at most every 5 s. Informational: a lag never fails readiness.',
      }),
    ),
  },
  { title: 'ReadyResponse', description: 'Whether the process can serve requests that need the database.' },
);
