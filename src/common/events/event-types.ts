import { Scope } from '../scopes';

/**
 * Who may read the events of a type, as who may read their object:
 * - `everyoneWith`: every key holding that scope (a pet, public to `pets:read`);
 * - `ownerWith` and `organizationStaffWith`: the key the object belongs to, holding the first
 *   scope, and the staff of the organisation it belongs to holding the second (an order: its own
 *   key with `orders:read`, and the shelter's keys with `orders:manage`);
 * - `endpointOwner`: the key owning the one webhook endpoint the event is for (a ping); such
 *   events are never in the feed.
 */
export type EventReaders =
  | { readonly everyoneWith: Scope }
  | { readonly ownerWith: Scope; readonly organizationStaffWith: Scope }
  | { readonly endpointOwner: true };

/** A kind of event, as the feature whose objects it tells of declares it. */
export interface EventType {
  /** `<object>.<what happened>`: lower case, dot-separated, at most 32 characters. */
  readonly name: string;
  readonly readers: EventReaders;
  /** One sentence for the documents: what happened. */
  readonly description: string;
}

const NAME = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9_]*)+$/;
const MAX_NAME = 32;

/** Every type declared so far, in the order declared, and each declaration's problems. */
const declared: EventType[] = [];

/**
 * Declares the event types of a feature, in its own folder (`<feature>/domain/*.events.ts`): who
 * may read each, and what it says. A use case records an event by its type, so no event can be
 * recorded of a type no feature declared; the declarations are checked as the application starts
 * (`eventTypeProblems`: a name taken twice, badly formed, or naming an unknown scope stops it).
 */
export function declareEventTypes<
  const T extends Record<string, { readonly readers: EventReaders; readonly description: string }>,
>(declarations: T): { readonly [K in keyof T]: EventType & { readonly name: K & string } } {
  const types = Object.fromEntries(
    Object.entries(declarations).map(([name, { readers, description }]) => {
      const type: EventType = Object.freeze({ name, readers, description });
      declared.push(type);
      return [name, type];
    }),
  );
  return types as { readonly [K in keyof T]: EventType & { readonly name: K & string } };
}

/** Every declared event type, in the order declared. */
export function declaredEventTypes(): readonly EventType[] {
  return declared;
}

/** The declared type of that name, if any. */
export function eventTypeNamed(name: string): EventType | undefined {
  return declared.find((type) => type.name === name);
}

/** Whether the events of a type appear in the feed (all but those for one endpoint). */
export const inFeed = (type: EventType) => !('endpointOwner' in type.readers);

/** The names of every declared type. */
export const eventTypeNames = () => declared.map((type) => type.name);

/** The names of the types the feed shows, and a webhook endpoint may subscribe to. */
export const feedEventTypeNames = () => declared.filter(inFeed).map((type) => type.name);

/** The scopes a type's readers name. */
function scopesOf(readers: EventReaders): string[] {
  if ('everyoneWith' in readers) return [readers.everyoneWith];
  if ('ownerWith' in readers) return [readers.ownerWith, readers.organizationStaffWith];
  return [];
}

/**
 * What is wrong with the declarations, checked once as the application starts: each name well
 * formed and declared once, each scope one the application knows. Empty when all is well.
 */
export function eventTypeProblems(knownScopes: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { name, readers } of declared) {
    if (!NAME.test(name) || name.length > MAX_NAME) {
      problems.push(
        `event type "${name}" must be lower-case words joined by dots, such as "pet.created", at most ${MAX_NAME} characters`,
      );
    }
    if (seen.has(name)) problems.push(`event type "${name}" is declared twice`);
    seen.add(name);
    for (const scope of scopesOf(readers)) {
      if (!knownScopes.includes(scope)) {
        problems.push(`event type "${name}" names the unknown scope "${scope}"`);
      }
    }
  }
  return problems;
}
