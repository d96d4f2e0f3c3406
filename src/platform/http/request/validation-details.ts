import { getMetadataStorage, ValidationError } from 'class-validator';
import { ErrorDetail, ValidationIssue } from '../errors/api-error';

/** Where an input arrived: a body, a query, a path, or a header (a custom parameter). */
export type InputKind = 'body' | 'query' | 'param' | 'custom';

/**
 * What a rule of the house's own (registerDecorator) says about its failures, in its `context`:
 * the issue, fixed or judged from the refused value (`IsText`: a wrong length is a range, a NUL a
 * format). class-validator hands a rule's context back on its errors.
 */
export interface IssueContext {
  issue: ValidationIssue | ((value: unknown) => ValidationIssue);
}

/** The issue of each class-validator rule the DTOs use; a rule not listed is a format. */
const ISSUE_OF_RULE: Record<string, ValidationIssue> = {
  isString: 'type',
  isInt: 'type',
  isNumber: 'type',
  isBoolean: 'type',
  isArray: 'type',
  isObject: 'type',
  nestedValidation: 'type',
  unknownValue: 'type',
  min: 'range',
  max: 'range',
  minLength: 'range',
  maxLength: 'range',
  isLength: 'range',
  arrayMinSize: 'range',
  arrayMaxSize: 'range',
  arrayNotEmpty: 'range',
  isIn: 'enum',
  isEnum: 'enum',
  equals: 'enum',
  matches: 'format',
  arrayUnique: 'format',
};

/** The order in which one input's issues are told: a value of the wrong type is told only that. */
const ISSUE_ORDER: ValidationIssue[] = ['type', 'format', 'enum', 'range'];

type Described = { fieldNames?: Record<string, string> };

/**
 * The names an input of this class may carry (its validated properties), as the OpenAPI document
 * lists them: inherited ones first, each class's in declaration order.
 */
const knownNamesOf = (() => {
  const known = new WeakMap<object, string[]>();
  return (type: unknown): string[] => {
    if (typeof type !== 'function') return [];
    let names = known.get(type);
    if (!names) {
      const rules = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
      const lineage: unknown[] = [];
      for (let c: unknown = type; typeof c === 'function' && c !== Function.prototype;) {
        lineage.unshift(c);
        c = Object.getPrototypeOf(c);
      }
      const depth = (target: unknown) => {
        const at = lineage.indexOf(target);
        return at === -1 ? lineage.length : at;
      };
      const ordered = rules
        .map((rule, index) => ({ rule, index }))
        .sort((a, b) => depth(a.rule.target) - depth(b.rule.target) || a.index - b.index);
      names = [...new Set(ordered.map(({ rule }) => rule.propertyName))];
      known.set(type, names);
    }
    return names;
  };
})();

/**
 * Jaro-Winkler similarity of two names, case ignored: 1 for the same letters, near 1 for a typo or
 * a swapped pair (`limt`, `stauts`), low for another word of the same length (`page`, `name`).
 */
export function similarity(a: string, b: string): number {
  const [s, t] = [a.toLowerCase(), b.toLowerCase()];
  if (s === t) return 1;
  const window = Math.max(0, Math.floor(Math.max(s.length, t.length) / 2) - 1);
  const sMatched = new Array<boolean>(s.length).fill(false);
  const tMatched = new Array<boolean>(t.length).fill(false);
  let matches = 0;
  for (let i = 0; i < s.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(t.length, i + window + 1); j++) {
      if (!tMatched[j] && s[i] === t[j]) {
        sMatched[i] = tMatched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    if (!sMatched[i]) continue;
    while (!tMatched[j]) j++;
    if (s[i] !== t[j++]) transpositions++;
  }
  const jaro =
    (matches / s.length + matches / t.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < Math.min(4, s.length, t.length) && s[prefix] === t[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * The known name a client most likely meant, when one is close enough to say so. Only names that
 * begin with the same letter: a typo keeps its first letter, and without this `page` (a parameter
 * of other APIs) would be "did you mean age?".
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let score = 0.85;
  const first = name.charAt(0).toLowerCase();
  for (const candidate of known) {
    if (candidate.charAt(0).toLowerCase() !== first) continue;
    const similar = similarity(name, candidate);
    if (similar >= score) [best, score] = [candidate, similar];
  }
  return best;
}

/** The message of an input no rule of its class knows: the closest name, and every known one. */
export function unknownFieldMessage(
  field: string,
  known: readonly string[],
  input: InputKind,
  parent = '',
): string {
  const name = field.slice(field.lastIndexOf('.') + 1);
  const suggestion = closestName(name, known);
  const [what, listed] =
    input === 'query'
      ? ['a query parameter of this operation', 'Its query parameters are']
      : [parent ? `a field of ${parent}` : 'a field of this body', 'Its fields are'];
  const hint = suggestion ? `: did you mean ${suggestion}?` : '.';
  const list = known.length > 0 ? ` ${listed} ${known.join(', ')}.` : ' It takes none.';
  return `${field} is not ${what}${hint}${list}`;
}

function issueOf(rule: string, error: ValidationError): ValidationIssue {
  const context = error.contexts?.[rule] as Partial<IssueContext> | undefined;
  const issue = context?.issue;
  if (typeof issue === 'function') return issue(error.value);
  return issue ?? ISSUE_OF_RULE[rule] ?? 'format';
}

/** A message written for the property alone names the whole path when the property is nested. */
const onPath = (message: string, property: string, field: string) =>
  field !== property && message.startsWith(property)
    ? field + message.slice(property.length)
    : message;

/**
 * The details of class-validator's errors (given with `target` and `value`): one per input and
 * issue. An absent input is one `required` entry, without the rules it would also break; an input
 * of the wrong type is told only that; an unknown one names the closest known name and lists them.
 */
export function validationDetails(
  errors: readonly ValidationError[],
  input: InputKind,
  parent = '',
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const type = error.target?.constructor as Described | undefined;
    const name = type?.fieldNames?.[error.property] ?? error.property;
    const field = parent ? `${parent}.${name}` : name;
    const rules = Object.keys(error.constraints ?? {});
    if (rules.includes('whitelistValidation')) {
      const message = unknownFieldMessage(field, knownNamesOf(type), input, parent);
      details.push({ field, issue: 'unknown_field', message });
    } else if (rules.length > 0 && error.value === undefined) {
      details.push({ field, issue: 'required', message: `${field} is required.` });
    } else if (rules.length > 0) {
      const byIssue = new Map<ValidationIssue, string>();
      // Whether a value is an object is told by isObject; nestedValidation says it again.
      for (const rule of rules
        .filter((r) => r !== 'nestedValidation')
        .concat(rules.filter((r) => r === 'nestedValidation'))) {
        const issue = issueOf(rule, error);
        if (!byIssue.has(issue)) byIssue.set(issue, error.constraints![rule]);
      }
      const issues = byIssue.has('type')
        ? ['type' as const]
        : ISSUE_ORDER.filter((i) => byIssue.has(i));
      for (const issue of issues) {
        details.push({ field, issue, message: onPath(byIssue.get(issue)!, error.property, field) });
      }
    }
    details.push(...validationDetails(error.children ?? [], input, field));
  }
  return details;
}
