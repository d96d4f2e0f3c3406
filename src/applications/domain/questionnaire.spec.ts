import fc from 'fast-check';
import {
  answersProblems,
  DEFAULT_TEXT_ANSWER_LENGTH,
  Question,
  QUESTION_TYPES,
  Questionnaire,
  questionsProblems,
} from './questionnaire';

/** Text of these characters: fast-check's own, cheaper than a pattern's generator. */
const textOf = (characters: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...characters), minLength, maxLength });
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/** A question as staff may write it: an id of `a-z0-9_`, its type's members only. */
const question = (id: string): fc.Arbitrary<Question> =>
  fc
    .record({ type: fc.constantFrom(...QUESTION_TYPES), required: fc.boolean() })
    .chain(({ type, required }) => {
      const base = { id, text: `Question ${id}?`, type, required };
      if (type === 'choice' || type === 'choices') {
        return fc
          .uniqueArray(textOf(LOWER, 1, 8), { minLength: 1, maxLength: 5 })
          .map((choices) => ({ ...base, choices }));
      }
      if (type === 'text') {
        return fc
          .option(fc.integer({ min: 1, max: 60 }), { nil: undefined })
          .map((maxLength) => (maxLength === undefined ? base : { ...base, maxLength }));
      }
      return fc.constant(base);
    });

const questionnaires: fc.Arbitrary<Questionnaire> = fc
  .uniqueArray(textOf(`${LOWER}0123456789_`, 1, 12), { minLength: 1, maxLength: 8 })
  .chain((ids) => fc.tuple(...ids.map(question)))
  .chain((questions) => fc.integer({ min: 1, max: 99 }).map((version) => ({ version, questions })));

/** An answer that fits the question. */
function validAnswer(q: Question): fc.Arbitrary<unknown> {
  switch (q.type) {
    case 'text':
      // Prose: a letter first (never only white space), then line breaks and punctuation too.
      return fc
        .tuple(textOf(LOWER, 1, 1), textOf(`${LOWER} .,'\n`, 0, 70))
        .map(([first, rest]) => (first + rest).slice(0, q.maxLength ?? DEFAULT_TEXT_ANSWER_LENGTH));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'choice':
      return fc.constantFrom(...q.choices!);
    case 'choices':
      return fc.subarray([...q.choices!]);
  }
}

/** Answers that fit: every required question answered, optional ones answered, null or absent. */
const answered = (questionnaire: Questionnaire) =>
  fc
    .tuple(
      ...questionnaire.questions.map((q) =>
        q.required
          ? validAnswer(q)
          : fc.oneof(validAnswer(q), fc.constant(null), fc.constant(undefined)),
      ),
    )
    .map((values) =>
      Object.fromEntries(
        questionnaire.questions
          .map((q, i) => [q.id, values[i]] as const)
          .filter(([, value]) => value !== undefined),
      ),
    );

/** An answer of another kind than the question's. */
const WRONG_TYPE: Record<Question['type'], unknown> = {
  text: 42,
  boolean: 'true',
  number: '7',
  date: '2026-02-30',
  choice: ['own'],
  choices: 'own',
};

type Mutation = 'wrong type' | 'unknown id' | 'missing required' | 'not a choice' | 'too long';

/**
 * One thing made wrong in answers that fit: the answers and the question id it concerns, or
 * undefined when the questionnaire has no question it applies to.
 */
function mutate(
  questionnaire: Questionnaire,
  answers: Record<string, unknown>,
  mutation: Mutation,
  pick: number,
): { answers: Record<string, unknown>; id: string } | undefined {
  const among = (fits: (q: Question) => boolean) => {
    const candidates = questionnaire.questions.filter(fits);
    return candidates.length === 0 ? undefined : candidates[pick % candidates.length];
  };
  const set = (id: string, value: unknown) => ({ answers: { ...answers, [id]: value }, id });
  switch (mutation) {
    case 'wrong type': {
      const q = among(() => true)!;
      return set(q.id, WRONG_TYPE[q.type]);
    }
    case 'unknown id':
      // Generated ids are lower case: one with a capital answers no question.
      return set(`Unknown${pick}`, 'yes');
    case 'missing required': {
      const q = among((x) => x.required);
      if (!q) return undefined;
      const { [q.id]: _, ...rest } = answers;
      return pick % 2 ? { answers: rest, id: q.id } : set(q.id, null);
    }
    case 'not a choice': {
      const q = among((x) => x.type === 'choice' || x.type === 'choices');
      if (!q) return undefined;
      return set(q.id, q.type === 'choice' ? 'NotAChoice' : [...q.choices!, 'NotAChoice']);
    }
    case 'too long': {
      const q = among((x) => x.type === 'text');
      if (!q) return undefined;
      return set(q.id, 'a'.repeat((q.maxLength ?? DEFAULT_TEXT_ANSWER_LENGTH) + 1));
    }
  }
}

describe('answers against random questionnaires (property)', () => {
  it('generates questionnaires staff may save', () => {
    fc.assert(fc.property(questionnaires, (q) => questionsProblems(q.questions).length === 0));
  });

  it('accepts any answers that fit the questionnaire', () => {
    fc.assert(
      fc.property(
        questionnaires.chain((q) => fc.tuple(fc.constant(q), answered(q))),
        ([questionnaire, answers]) => {
          expect(answersProblems(questionnaire, answers)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses one wrong answer (wrong type, unknown id, missing while required, not a choice, too long) naming exactly answers.<id>', () => {
    fc.assert(
      fc.property(
        questionnaires.chain((q) =>
          fc.tuple(
            fc.constant(q),
            answered(q),
            fc.constantFrom<Mutation>(
              'wrong type',
              'unknown id',
              'missing required',
              'not a choice',
              'too long',
            ),
            fc.nat(),
          ),
        ),
        ([questionnaire, answers, mutation, pick]) => {
          const mutated = mutate(questionnaire, answers, mutation, pick);
          fc.pre(mutated !== undefined);
          const problems = answersProblems(questionnaire, mutated!.answers);
          expect(problems.map((p) => p.field)).toEqual([`answers.${mutated!.id}`]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
