import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Each type is declared once (STYLE.md habit 15): no two files under src/ (tests aside) declare a
 * type alias or interface of the same name, or the same set of string literals (a union, an
 * `as const` list, a TypeBox `Type.Enum` or union of literals). A justified repeat goes in
 * ALLOWED with its reason. Run alone: `npx vitest run src/declared-once.test.ts`.
 */

const SRC = join(import.meta.dirname);

/** A repeat kept on purpose: the files that may declare it, and why. */
interface Allowed {
  readonly files: readonly string[];
  readonly reason: string;
}

/** Type names declared in more than one file on purpose. */
/** The engine's prices: every field present, integer minor units, no planId; the contract's are TypeBox, optional, major on the wire. */
const ENGINE_PRICES: Allowed = {
  files: ['pricing/results.ts'],
  reason:
    'pricing sits below quotes and cannot read the contract; quotes/pricing-port.ts assigns one to the other, so the compiler keeps them in step',
};

/** The calendar kernel's LocalDate value (every field) and the contract's schema of it (policies/schemas-shared.ts). */
const KERNEL_LOCAL_DATE: Allowed = {
  files: ['kernel/calendar/local-date.ts'],
  reason: 'a kernel imports no area; the value has every field the schema makes optional',
};

const ALLOWED_NAMES: Readonly<Record<string, Allowed>> = {
  ...Object.fromEntries(
    [
      'TaxComponentResult',
      'BasePriceResultDetail',
      'BasePriceResult',
      'OptionPriceResultDetail',
      'OptionPriceResult',
      'QuotePriceResult',
      'BasePriceSummary',
      'OptionItemPriceSummary',
      'OptionPriceSummary',
      'QuotePriceSummary',
    ].map((name) => [name, ENGINE_PRICES]),
  ),
  LocalDate: KERNEL_LOCAL_DATE,
  CalendarSystem: KERNEL_LOCAL_DATE,
  Era: KERNEL_LOCAL_DATE,
  RefundLine: {
    files: ['policy-changes/model.ts'],
    reason: "a change's refund call (minor units, its progress) beside the contract's line (major units)",
  },
  Destination: {
    files: ['quotes/ports.ts'],
    reason:
      'another shape under one name: the quotes port reads one name and the rating region, the catalogue keeps every language',
  },
  HeldClaim: {
    files: ['quotes/repository-purchase.ts'],
    reason: 'a quote claimed by a purchase, not an Idempotency-Key held by a request; owner: being moved',
  },
  AuthorizedPerson: {
    files: ['screening/model.ts'],
    reason:
      "who answered a screening (every field, the screening API asks for all) beside the contract's schema of it (every field optional)",
  },
  ScreeningQuestion: {
    files: ['screening/model.ts'],
    reason:
      "the pure engine names no schema; screening/contract.ts assigns the engine's question to the wire schema, so the compiler keeps them in step",
  },
  ScreeningResult: {
    files: ['screening/screening.ts'],
    reason:
      "a stored result (assessment in minor units) beside the contract's answer (major units); contract.ts maps one to the other",
  },
  DeliveryDeps: {
    files: ['documents/delivery.ts', 'events/webhooks/delivery.ts'],
    reason: 'what each outbox handler is given: two handlers, two sets of dependencies',
  },
};

/** Literal sets (members sorted, joined by `|`) declared in more than one file on purpose. */
const ALLOWED_LITERALS: Readonly<Record<string, Allowed>> = {
  'en|es': {
    files: ['documents/mail/wording.ts'],
    reason: 'mail wording and document labels are translated apart; a language may come to one first',
  },
};

/** Files whose declarations are another change's: being restructured by their owners now. */
const OWNED_ELSEWHERE: readonly string[] = [];

interface Declaration {
  readonly file: string;
  readonly key: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The members of a set of string literals, or undefined unless every element is one (two or more). */
function literalKey(elements: readonly ts.Node[]): string | undefined {
  const texts = elements.map((e) =>
    ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) ? e.text : undefined,
  );
  if (texts.length < 2 || texts.some((t) => t === undefined)) return undefined;
  return [...new Set(texts as string[])].sort().join('|');
}

const typeLiteral = (node: ts.TypeNode) => (ts.isLiteralTypeNode(node) ? node.literal : node);

/** `Type.Literal('A')` → the string literal. */
function typeBoxLiteral(node: ts.Expression): ts.Node {
  if (ts.isCallExpression(node) && node.expression.getText() === 'Type.Literal' && node.arguments[0]) {
    return node.arguments[0];
  }
  return node;
}

/**
 * An alias that names another type, or part of one (`Static<…>`, `Pick<…>`, `(typeof LIST)[number]`),
 * or joins named types (`Pick<…> & Other`), declares nothing new.
 */
const derived = (type: ts.TypeNode): boolean =>
  (ts.isIntersectionTypeNode(type) && type.types.every(derived)) ||
  ts.isTypeReferenceNode(type) ||
  ts.isIndexedAccessTypeNode(type) ||
  ts.isTypeQueryNode(type) ||
  ts.isTypeOperatorNode(type);

const typeBox = (value: ts.Expression) =>
  ts.isCallExpression(value) && /^Type\.(Object|Enum|Union)$/.test(value.expression.getText());

function declarations(path: string): { names: Declaration[]; literals: Declaration[] } {
  const file = relative(SRC, path);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names: Declaration[] = [];
  const literals: Declaration[] = [];
  const literal = (key: string | undefined) => {
    if (key !== undefined) literals.push({ file, key });
  };
  const visit = (node: ts.Node): void => {
    // A module augmentation (`declare module 'fastify'`) adds to a type, it declares none.
    if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) return;
    if (ts.isInterfaceDeclaration(node) || (ts.isTypeAliasDeclaration(node) && !derived(node.type))) {
      names.push({ file, key: node.name.text });
    }
    // A TypeBox schema declares the type its `Static<>` names.
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && typeBox(node.initializer)) {
      names.push({ file, key: node.name.text });
    }
    if (ts.isUnionTypeNode(node)) literal(literalKey(node.types.map(typeLiteral)));
    if (ts.isAsExpression(node) && node.type.getText() === 'const' && ts.isArrayLiteralExpression(node.expression)) {
      literal(literalKey(node.expression.elements));
    }
    if (ts.isCallExpression(node) && node.arguments[0] && ts.isArrayLiteralExpression(node.arguments[0])) {
      const callee = node.expression.getText();
      if (callee === 'Type.Enum') literal(literalKey(node.arguments[0].elements));
      if (callee === 'Type.Union') literal(literalKey(node.arguments[0].elements.map(typeBoxLiteral)));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { names, literals };
}

/** Keys found in two or more files, each with its files; an allowed file of the key does not count. */
function repeated(found: readonly Declaration[], allowed: Readonly<Record<string, Allowed>>): Record<string, string[]> {
  const files = new Map<string, Set<string>>();
  for (const { file, key } of found) {
    if (OWNED_ELSEWHERE.some((owned) => file.startsWith(owned))) continue;
    if (allowed[key]?.files.includes(file)) continue;
    files.set(key, (files.get(key) ?? new Set()).add(file));
  }
  return Object.fromEntries(
    [...files].filter(([, where]) => where.size > 1).map(([key, where]) => [key, [...where].sort()]),
  );
}

describe('each type declared once under src/', () => {
  const all = sourceFiles(SRC).map(declarations);

  it('no two files declare a type of the same name', () => {
    expect(
      repeated(
        all.flatMap((d) => d.names),
        ALLOWED_NAMES,
      ),
    ).toEqual({});
  });

  it('allows only repeats that are still there', () => {
    const found = new Set(all.flatMap((d) => [...d.names, ...d.literals]).map(({ file, key }) => `${key} in ${file}`));
    const allowed = [ALLOWED_NAMES, ALLOWED_LITERALS].flatMap((list) =>
      Object.entries(list).flatMap(([key, { files }]) => files.map((file) => `${key} in ${file}`)),
    );
    expect(allowed.filter((entry) => !found.has(entry))).toEqual([]);
  });

  it('no two files declare the same set of string literals', () => {
    expect(
      repeated(
        all.flatMap((d) => d.literals),
        ALLOWED_LITERALS,
      ),
    ).toEqual({});
  });
});
