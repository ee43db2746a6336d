import {
  createQueryId,
  isOperationNodeSource,
  sql,
  type Compilable,
  type CompiledQuery,
  type Expression,
  type SqlBool,
} from 'kysely';
import { setBounded } from '../kernel/cache/bounded-map.js';
import type { Executor } from './database.js';
import type { CommitPlan, PlanRow } from './commit-plan-step.js';

/**
 * A commit plan's compiled statements and where each parameter's value comes from on a call: the
 * call's values (read through placeholders), an earlier step's row, or JSON built from them.
 */

/** Where a compiled parameter's value comes from on each call. */
export type Slot =
  | { readonly kind: 'value'; readonly step: number; readonly name: string }
  | {
      readonly kind: 'element';
      readonly step: number;
      readonly name: string;
      readonly index: number;
      readonly column: string;
    }
  | {
      readonly kind: 'json';
      readonly step: number;
      readonly fields: readonly (readonly [string, Slot | { constant: unknown }])[];
    }
  | { readonly kind: 'json-rows'; readonly step: number; readonly name: string }
  | { readonly kind: 'ref'; readonly step: string; readonly column: string };

export interface Statement {
  readonly query: CompiledQuery;
  /** Per parameter: its slot, or undefined for a constant of the SQL. */
  readonly slots: readonly (Slot | undefined)[];
}

export interface CompiledPlan {
  /** SQLite: one per step; PostgreSQL: the one statement. */
  readonly statements: readonly Statement[];
}

/** Plans times shapes (patch columns, row counts) of one engine: a few dozen in practice. */
const PLANS_KEPT = 256;

/** An engine's compiled plans, by plan and shape: each compiled on its first call. */
export class CompiledPlans {
  readonly #plans = new Map<string, CompiledPlan>();

  /** The plan's compilation for its shape; `rowCounts`: a multi-row insert's row count is part of the shape. */
  of(plan: CommitPlan, rowCounts: boolean, compile: () => CompiledPlan): CompiledPlan {
    const key = shapeOf(plan, rowCounts);
    let compiled = this.#plans.get(key);
    if (!compiled) {
      compiled = compile();
      setBounded(this.#plans, key, compiled, PLANS_KEPT);
    }
    return compiled;
  }
}

function shapeOf(plan: CommitPlan, rowCounts: boolean): string {
  let key = plan.name;
  for (const step of plan.steps) {
    key += `|${step.name}:${step.shape ?? ''}`;
    if (!rowCounts) continue;
    const values = step.values as Record<string, unknown>;
    for (const name in values) {
      const value = values[name];
      if (Array.isArray(value)) key += `:${value.length}`;
    }
  }
  return key;
}

/** The placeholders of one compilation: unique strings, found again among the compiled parameters. */
export class Placeholders {
  readonly slots = new Map<unknown, Slot>();
  private next = 0;

  token(slot: Slot): string {
    const token = `\u0000plan:${this.next++}:${Math.random()}`;
    this.slots.set(token, slot);
    return token;
  }

  valuesOf(step: number, actual: object): object {
    return new Proxy(
      {},
      {
        get: (_, name) => {
          if (typeof name !== 'string') return undefined;
          if (!(name in actual)) throw new Error(`commit plan: step value ${name} missing`);
          return this.token({ kind: 'value', step, name });
        },
        // Spread (`{ ...v }`): every value of the step, each as its placeholder.
        ownKeys: () => Object.keys(actual),
        getOwnPropertyDescriptor: (_, name) =>
          typeof name === 'string' && name in actual
            ? { enumerable: true, configurable: true, value: this.token({ kind: 'value', step, name }) }
            : undefined,
      },
    );
  }

  statement(compilable: Compilable): Statement {
    const query = compilable.compile();
    return { query, slots: query.parameters.map((parameter) => this.slots.get(parameter)) };
  }
}

export const isExpression = (value: unknown): value is Expression<unknown> => isOperationNodeSource(value);
export const TRUE = sql<SqlBool>`true`;

export function statementAt({ statements }: CompiledPlan, index: number): Statement {
  const statement = statements[index];
  if (!statement) throw new Error(`commit plan: no statement ${index}`);
  return statement;
}

/** The statement's parameters for this call: constants of the SQL, the plan's values, earlier steps' columns. */
export function parametersOf(
  { query, slots }: Statement,
  plan: CommitPlan,
  earlier: Readonly<Record<string, PlanRow | undefined>>,
): unknown[] {
  return query.parameters.map((constant, i) => {
    const slot = slots[i];
    return slot === undefined ? constant : valueOf(slot, plan, earlier);
  });
}

export async function execute(
  db: Executor,
  statement: Statement,
  plan: CommitPlan,
  earlier: Readonly<Record<string, PlanRow | undefined>>,
) {
  const { query } = statement;
  const parameters = parametersOf(statement, plan, earlier);
  return db.executeQuery<PlanRow>({ sql: query.sql, query: query.query, parameters, queryId: createQueryId() });
}

function valueOf(slot: Slot, plan: CommitPlan, earlier: Readonly<Record<string, PlanRow | undefined>>): unknown {
  switch (slot.kind) {
    case 'ref':
      return earlier[slot.step]?.[slot.column];
    case 'json':
      return JSON.stringify(
        Object.fromEntries(
          slot.fields.map(([column, source]) => [
            column,
            'constant' in source ? source.constant : valueOf(source, plan, earlier),
          ]),
        ),
      );
    default: {
      const values = plan.steps[slot.step]?.values as Record<string, unknown>;
      const value = values[slot.name];
      if (slot.kind === 'json-rows') return JSON.stringify(value);
      if (slot.kind === 'element') return (value as Record<string, unknown>[])[slot.index]?.[slot.column];
      if (value === undefined) throw new Error(`commit plan: no value for ${slot.name}`);
      return value;
    }
  }
}
