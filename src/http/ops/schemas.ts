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
  },
  { title: 'ReadyResponse', description: 'Whether the process can serve requests that need the database.' },
);
