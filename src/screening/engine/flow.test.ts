import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../catalogue/compile.js';
import type { ScreeningAnswers, ScreeningEngine, ScreeningTrip } from '../model.js';
import { buildScreeningEngine } from './engine.js';

let engine: ScreeningEngine;
beforeAll(async () => {
  const { catalogue } = await validateCatalogue('catalogue');
  if (!catalogue) throw new Error('catalogue invalid');
  engine = buildScreeningEngine(catalogue, { testConditions: true });
});

const trip: ScreeningTrip = {
  brandCode: 'nomad',
  planCode: 'COMP',
  destinationCodes: ['MEX'],
  durationDays: 7,
  currencyCode: 'USD',
  language: 'en',
};
const gate = { 'gate.hospital': ['NO'], 'gate.medication': ['YES'], 'gate.awaiting': ['NO'], 'gate.terminal': ['NO'] };
const ids = (answers: ScreeningAnswers, t = trip) => engine.nextQuestions(t, answers).map((q) => q.id);

describe('screening engine: order of questions', () => {
  it('asks every gate question first, together, then travel mode and conditions, then follow-ups', () => {
    const first = engine.nextQuestions(trip, {});
    expect(first.map((q) => q.id)).toEqual(['gate.hospital', 'gate.medication', 'gate.awaiting', 'gate.terminal']);
    expect(first[0]).toMatchObject({
      kind: 'GATE',
      multiple: false,
      choices: [
        { code: 'YES', text: 'Yes' },
        { code: 'NO', text: 'No' },
      ],
    });
    expect(ids({ 'gate.hospital': ['YES'] })).toEqual(['gate.medication', 'gate.awaiting', 'gate.terminal']);
    expect(ids(gate)).toEqual(['travelMode', 'conditions']);
    const [mode, conditions] = engine.nextQuestions(trip, gate);
    expect(mode?.choices.map((c) => c.code)).toEqual(['AIR', 'CRUISE', 'BOTH', 'NONE']);
    expect(conditions).toMatchObject({ kind: 'CONDITIONS', multiple: true });
    expect(conditions?.choices.length).toBe(26 + 6);
  });

  it('asks the follow-ups of declared conditions in catalogue order, whatever order they were declared in', () => {
    const answers = { ...gate, travelMode: ['AIR'], conditions: ['EPILEPSY', 'TEST_COVERED', 'DIABETES_TYPE_2'] };
    expect(ids(answers)).toEqual([
      'DIABETES_TYPE_2.treatment',
      'DIABETES_TYPE_2.complications',
      'EPILEPSY.lastSeizure',
    ]);
    expect(engine.nextQuestions(trip, answers)[0]).toMatchObject({
      kind: 'FOLLOW_UP',
      conditionCode: 'DIABETES_TYPE_2',
    });
    expect(
      ids({
        ...answers,
        'DIABETES_TYPE_2.treatment': ['DIET'],
        'DIABETES_TYPE_2.complications': ['NO'],
        'EPILEPSY.lastSeizure': ['OVER_12_MONTHS'],
      }),
    ).toEqual([]);
  });

  it('asks a dependent question only after the answer it depends on', () => {
    const answers = { ...gate, travelMode: ['CRUISE'], conditions: ['IBD'] };
    expect(ids(answers)).toEqual(['IBD.admitted12m']);
    expect(ids({ ...answers, 'IBD.admitted12m': ['NO'] })).toEqual([]);
    expect(ids({ ...answers, 'IBD.admitted12m': ['YES'] })).toEqual(['IBD.admissions']);
    const done = { ...answers, 'IBD.admitted12m': ['YES'], 'IBD.admissions': ['TWICE'] };
    expect(ids(done)).toEqual([]);
    // 1.5 × 1.6 × 1.5 (two admissions) × 2.0 (Mexico) × 1.3 (cruise) = 9.36: above nomad's EXCLUDED band (8).
    expect(engine.assess(trip, done)).toMatchObject({ outcome: 'DECLINED', score: 9.36 });
  });

  it('speaks the trip language', () => {
    const es = { ...trip, language: 'es' };
    expect(engine.nextQuestions(es, {})[0]).toMatchObject({
      text: expect.stringMatching(/^En los últimos 2 años/),
      choices: [{ text: 'Sí' }, { text: 'No' }],
    });
    expect(
      engine
        .assess(es, { ...gate, travelMode: ['AIR'], conditions: ['GLAUCOMA', 'TEST_REFERRED'] })
        .conditions.map((c) => c.name),
    ).toEqual(['Glaucoma', 'Prueba: remitida a un suscriptor']);
  });
});

describe('screening engine: answer problems', () => {
  const problems = (answers: Record<string, unknown>) =>
    engine.checkAnswers(trip, answers as ScreeningAnswers).map((p) => [p.questionId, p.code]);

  it('accepts partial answers that are fine so far', () => {
    expect(engine.checkAnswers(trip, {})).toEqual([]);
    expect(engine.checkAnswers(trip, { ...gate, conditions: [] })).toEqual([]);
  });

  it('names each malformed answer by its question with a code', () => {
    expect(problems({ 'gate.nope': ['YES'], other: ['NO'] })).toEqual([
      ['gate.nope', 'UNKNOWN_QUESTION'],
      ['other', 'UNKNOWN_QUESTION'],
    ]);
    expect(problems({ 'gate.hospital': ['MAYBE'] })).toEqual([['gate.hospital', 'UNKNOWN_CHOICE']]);
    expect(problems({ 'gate.hospital': ['YES', 'NO'] })).toEqual([['gate.hospital', 'ONE_CHOICE_ONLY']]);
    expect(problems({ 'gate.hospital': [] })).toEqual([['gate.hospital', 'NO_CHOICE']]);
    expect(problems({ 'gate.hospital': 'YES' })).toEqual([['gate.hospital', 'UNKNOWN_CHOICE']]);
    expect(problems({ ...gate, 'gate.medication': ['NO'], travelMode: ['AIR'] })).toEqual([
      ['travelMode', 'NOT_ASKED'],
    ]);
    expect(problems({ ...gate, travelMode: ['CAR'] })).toEqual([['travelMode', 'UNKNOWN_CHOICE']]);
    expect(problems({ ...gate, conditions: ['ASTHMA', 'GOUT'] })).toEqual([['conditions', 'UNKNOWN_CHOICE']]);
    expect(problems({ ...gate, conditions: ['ASTHMA', 'ASTHMA'] })).toEqual([['conditions', 'ONE_CHOICE_ONLY']]);
    expect(problems({ ...gate, conditions: ['ASTHMA'], 'COPD.oxygen': ['NO'] })).toEqual([
      ['COPD.oxygen', 'NOT_ASKED'],
    ]);
    expect(
      problems({ ...gate, conditions: ['ASTHMA'], 'ASTHMA.admitted12m': ['NO'], 'ASTHMA.admissions': ['ONCE'] }),
    ).toEqual([['ASTHMA.admissions', 'NOT_ASKED']]);
    expect(problems({ ...gate, conditions: ['ASTHMA'], 'ASTHMA.nope': ['NO'] })).toEqual([
      ['ASTHMA.nope', 'UNKNOWN_QUESTION'],
    ]);
  });

  it('never echoes an answered code in a message', () => {
    const found = engine.checkAnswers(trip, {
      'gate.hospital': ['SECRET_ANSWER'],
      conditions: ['ASTHMA'],
      'ASTHMA.admitted12m': ['NO'],
    });
    expect(found.length).toBeGreaterThan(0);
    for (const p of found) expect(p.message).not.toMatch(/SECRET_ANSWER|ASTHMA/);
  });

  it('refuses to assess answers with problems or unanswered questions, without naming them', () => {
    expect(() => engine.assess(trip, { ...gate, conditions: ['ASTHMA'] })).toThrow(/not complete/);
    expect(() =>
      engine.assess(trip, { ...gate, travelMode: ['AIR'], conditions: ['ASTHMA'], 'ASTHMA.x': ['NO'] }),
    ).toThrow(/^(?!.*ASTHMA).*answer problem/);
  });
});

describe('screening engine: condition search', () => {
  const codes = (query: string, language = 'en') =>
    engine.findConditions({ ...trip, language }, query).map((c) => c.code);
  it('finds names and synonyms case- and accent-insensitively in the trip language', () => {
    expect(codes('ASTHMA')).toEqual(['ASTHMA']);
    expect(codes('inhaler')).toEqual(['ASTHMA']);
    expect(codes('diabetes')).toEqual(['DIABETES_TYPE_1', 'DIABETES_TYPE_2']);
    expect(codes('cardiaca', 'es')).toEqual(['HEART_FAILURE']);
    expect(codes('ASMÁTICO', 'es')).toEqual(['ASTHMA']);
    expect(codes('asmatico', 'es')).toEqual(['ASTHMA']);
    expect(codes('inhaler', 'es')).toEqual([]); // an English synonym is not searched in Spanish
    expect(codes('zzz')).toEqual([]);
    expect(codes('  ').length).toBe(32);
    expect(engine.findConditions({ ...trip, language: 'es' }, 'sueño')).toEqual([
      { code: 'SLEEP_APNOEA', name: 'Apnea del sueño' },
    ]);
  });
});
