import { textProblem } from '../../common/text';

/**
 * A shelter's questions to its applicants (CONTRACT.md "Adoption applications (v1.4)"): one per
 * organisation, versioned; an application keeps the version it answered. Plain data and rules.
 */
export const QUESTION_TYPES = ['text', 'boolean', 'number', 'date', 'choice', 'choices'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface Question {
  readonly id: string;
  readonly text: string;
  readonly type: QuestionType;
  readonly required: boolean;
  readonly choices?: readonly string[];
  readonly maxLength?: number;
}

export interface Questionnaire {
  readonly version: number;
  readonly questions: readonly Question[];
}

export const MAX_QUESTIONS = 50;
/**
 * A question id: 1 to 40 of letters, digits and `_`. The contract says `a-z0-9_`, yet its own default
 * questionnaire has `landlordAllowsPets` and `hoursAlone`: capitals are taken, so that the default
 * questionnaire, read and sent back, is a valid one (docs/adr/0067).
 */
export const QUESTION_ID = /^[A-Za-z0-9_]{1,40}$/;
export const QUESTION_TEXT = { min: 1, max: 500 } as const;
export const DEFAULT_TEXT_ANSWER_LENGTH = 2000;
/** The longest text answer a question may allow, and a choice's length. */
export const MAX_TEXT_ANSWER_LENGTH = 10_000;
export const CHOICE_TEXT = { min: 1, max: 100 } as const;
export const MAX_CHOICES = 50;

/** One input found wrong: `path` as the Error body's `details` name it (`answers.housing`). */
/** The Error body's issues (docs/api.md): what is wrong with an input. */
export type Issue = 'required' | 'unknown_field' | 'type' | 'range' | 'format' | 'enum';

export interface Problem {
  readonly field: string;
  readonly issue: Issue;
  readonly message: string;
}

/** Every organisation's questionnaire until its staff write one: version 1. */
export const DEFAULT_QUESTIONNAIRE: Questionnaire = {
  version: 1,
  questions: [
    { id: 'household', text: 'Who lives in your household?', type: 'text', required: true },
    {
      id: 'housing',
      text: 'Do you own or rent your home?',
      type: 'choice',
      required: true,
      choices: ['own', 'rent', 'other'],
    },
    {
      id: 'landlordAllowsPets',
      text: 'If you rent, does your landlord allow pets?',
      type: 'boolean',
      required: false,
    },
    { id: 'otherPets', text: 'What other pets live with you?', type: 'text', required: false },
    {
      id: 'hoursAlone',
      text: 'How many hours a day would the animal be alone?',
      type: 'number',
      required: false,
    },
    {
      id: 'experience',
      text: 'What experience do you have with animals?',
      type: 'text',
      required: false,
    },
    {
      id: 'message',
      text: 'Anything else you would like to tell us?',
      type: 'text',
      required: false,
    },
  ],
};

const problem = (field: string, issue: Issue, message: string): Problem => ({
  field,
  issue,
  message,
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A full-date (RFC 3339): a real day of the Gregorian calendar. */
export function isFullDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Text under the house's one rule (src/common/text.ts); prose, so line breaks are allowed. */
export function isText(value: unknown, max: number, min = 1): value is string {
  return typeof value === 'string' && textProblem(value, { min, max, multiline: true }) === null;
}

/** The problems of one question as a staff member wrote it, each at `questions[i].member`. */
function questionProblems(value: unknown, at: string, seen: Set<string>): Problem[] {
  if (!isPlainObject(value)) return [problem(at, 'type', `${at} must be an object`)];
  const problems: Problem[] = [];
  const known = ['id', 'text', 'type', 'required', 'choices', 'maxLength'];
  for (const member of Object.keys(value).filter((m) => !known.includes(m))) {
    problems.push(
      problem(`${at}.${member}`, 'unknown_field', `${at}.${member} is not a member of a question`),
    );
  }
  const { id, text, type, required, choices, maxLength } = value;
  if (typeof id !== 'string' || !QUESTION_ID.test(id)) {
    problems.push(
      problem(`${at}.id`, 'format', `${at}.id must be 1 to 40 of letters, digits and _`),
    );
  } else if (seen.has(id)) {
    problems.push(problem(`${at}.id`, 'format', `${at}.id repeats the id ${id}`));
  } else seen.add(id);
  if (!isText(text, QUESTION_TEXT.max)) {
    problems.push(
      problem(
        `${at}.text`,
        'range',
        `${at}.text must be text of 1 to ${QUESTION_TEXT.max} characters`,
      ),
    );
  }
  if (!(QUESTION_TYPES as readonly unknown[]).includes(type)) {
    problems.push(
      problem(`${at}.type`, 'enum', `${at}.type must be one of ${QUESTION_TYPES.join(', ')}`),
    );
  }
  if (typeof required !== 'boolean') {
    problems.push(problem(`${at}.required`, 'type', `${at}.required must be true or false`));
  }
  const chosen = type === 'choice' || type === 'choices';
  if (chosen) {
    const list = Array.isArray(choices) ? choices : undefined;
    if (
      !list ||
      list.length < 1 ||
      list.length > MAX_CHOICES ||
      !list.every((c) => isText(c, CHOICE_TEXT.max)) ||
      new Set(list).size !== list.length
    ) {
      problems.push(
        problem(
          `${at}.choices`,
          'enum',
          `${at}.choices must be 1 to ${MAX_CHOICES} distinct texts of at most ${CHOICE_TEXT.max} characters`,
        ),
      );
    }
  } else if (choices !== undefined) {
    problems.push(
      problem(
        `${at}.choices`,
        'unknown_field',
        `${at}.choices is only for choice and choices questions`,
      ),
    );
  }
  if (
    maxLength !== undefined &&
    (type !== 'text' ||
      !Number.isInteger(maxLength) ||
      (maxLength as number) < 1 ||
      (maxLength as number) > MAX_TEXT_ANSWER_LENGTH)
  ) {
    problems.push(
      problem(
        `${at}.maxLength`,
        'range',
        `${at}.maxLength is only for text questions, from 1 to ${MAX_TEXT_ANSWER_LENGTH}`,
      ),
    );
  }
  return problems;
}

/** The problems of a questionnaire's questions as sent (`questions`): none when it may be saved. */
export function questionsProblems(questions: unknown): Problem[] {
  if (!Array.isArray(questions) || questions.length < 1 || questions.length > MAX_QUESTIONS) {
    return [
      problem('questions', 'range', `questions must be a list of 1 to ${MAX_QUESTIONS} questions`),
    ];
  }
  const seen = new Set<string>();
  return questions.flatMap((q, i) => questionProblems(q, `questions[${i}]`, seen));
}

/** The questions as they are kept and answered: only their own members, in order. */
export function questionsOf(questions: readonly Question[]): Question[] {
  return questions.map(({ id, text, type, required, choices, maxLength }) => ({
    id,
    text,
    type,
    required,
    ...(choices === undefined ? {} : { choices: [...choices] }),
    ...(maxLength === undefined ? {} : { maxLength }),
  }));
}

/** Whether `answer` answers `question` (its type, its choices, its length). */
export function answers(question: Question, answer: unknown): boolean {
  switch (question.type) {
    case 'text':
      return isText(answer, question.maxLength ?? DEFAULT_TEXT_ANSWER_LENGTH);
    case 'boolean':
      return typeof answer === 'boolean';
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer);
    case 'date':
      return typeof answer === 'string' && isFullDate(answer);
    case 'choice':
      return typeof answer === 'string' && (question.choices ?? []).includes(answer);
    case 'choices':
      return (
        Array.isArray(answer) &&
        answer.every((a) => typeof a === 'string' && (question.choices ?? []).includes(a)) &&
        new Set(answer).size === answer.length
      );
  }
}

const EXPECTED: Record<QuestionType, string> = {
  text: 'text',
  boolean: 'true or false',
  number: 'a number',
  date: 'a full-date such as 2026-05-01',
  choice: 'one of its choices',
  choices: 'a list of distinct choices',
};

/**
 * The problems of answers against the questionnaire they answer, each naming its question
 * (`answers.housing`): missing while required, unknown, of the wrong type or not a choice.
 */
export function answersProblems(questionnaire: Questionnaire, given: unknown): Problem[] {
  if (!isPlainObject(given)) return [problem('answers', 'type', 'answers must be an object')];
  const problems: Problem[] = [];
  const byId = new Map(questionnaire.questions.map((q) => [q.id, q]));
  for (const id of Object.keys(given)) {
    const question = byId.get(id);
    if (!question) {
      problems.push(
        problem(
          `answers.${id}`,
          'unknown_field',
          `answers.${id} answers no question of questionnaire version ${questionnaire.version}`,
        ),
      );
    }
  }
  for (const question of questionnaire.questions) {
    const at = `answers.${question.id}`;
    const answer = Object.hasOwn(given, question.id) ? given[question.id] : undefined;
    if (answer === undefined || answer === null) {
      if (question.required) problems.push(problem(at, 'required', `${at} is required`));
      continue;
    }
    if (!answers(question, answer)) {
      const bound =
        question.type === 'text'
          ? ` of at most ${question.maxLength ?? DEFAULT_TEXT_ANSWER_LENGTH} characters`
          : '';
      const choices = question.choices ? ` (${question.choices.join(', ')})` : '';
      problems.push(
        problem(at, 'type', `${at} must be ${EXPECTED[question.type]}${bound}${choices}`),
      );
    }
  }
  return problems;
}

/** The answers as kept: those given, without nulls, in the questionnaire's order. */
export function answersOf(
  questionnaire: Questionnaire,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const { id } of questionnaire.questions) {
    if (given[id] !== undefined && given[id] !== null) kept[id] = given[id];
  }
  return kept;
}

/** The ids of the questions answered in prose: what erasure replaces by null. */
export function textQuestionIds(questionnaire: Questionnaire): string[] {
  return questionnaire.questions.filter((q) => q.type === 'text').map((q) => q.id);
}
