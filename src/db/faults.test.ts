import { describe, expect, it } from 'vitest';
import { databaseFault, DatabaseUnavailable, isDatabaseFault } from './faults.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database faults', () => {
  it('classifies a lost, unreachable or overloaded database as unavailable', () => {
    for (const code of ['57P01', '57P02', '57P03', '57014', '25P03', '08006', '08001', '53300', 'ECONNREFUSED']) {
      expect(isDatabaseFault(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseFault(withCode('ECONNRESET'))).toBe(true);
    expect(isDatabaseFault(withCode('SQLITE_BUSY', 'database is locked'))).toBe(true);
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Query read timeout',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(isDatabaseFault(new Error(message)), message).toBe(true);
    }
  });

  it('follows causes and aggregate errors', () => {
    expect(isDatabaseFault(new Error('migration failed', { cause: withCode('57P01') }))).toBe(true);
    expect(isDatabaseFault(new AggregateError([new Error('a'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('leaves the request’s own errors and our bugs alone', () => {
    for (const code of ['23505', '23503', '22021', '40001', '42P01', 'SQLITE_CONSTRAINT', 'ERR_INVALID_ARG_TYPE']) {
      expect(isDatabaseFault(withCode(code)), code).toBe(false);
    }
    expect(isDatabaseFault(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseFault('57P01')).toBe(false);
    expect(isDatabaseFault(undefined)).toBe(false);
  });

  it('answers 503 DATABASE_UNAVAILABLE, retry after 2 s', () => {
    const fault = databaseFault(withCode('57P01'));
    expect(fault).toBeInstanceOf(DatabaseUnavailable);
    expect(fault).toMatchObject({ kind: 'unavailable', code: 'DATABASE_UNAVAILABLE', retryAfterSeconds: 2 });
    expect(databaseFault(new Error('boom'))).toBeUndefined();
  });
});
