/**
 * An enum whose values features declare as they load (the event types: each feature declares its
 * own, docs/extending.md). @nestjs/swagger reads an `enum` when the decorator runs, which may be
 * before a feature loaded later has declared its values; so the document's builder fills each
 * such enum's component again from `values` once every feature is loaded (createOpenApiDocument).
 */
export interface DeclaredEnum {
  /** The component schema's name. */
  readonly name: string;
  readonly values: () => readonly string[];
  /** Said of the component, from what the features declared (each value's meaning). */
  readonly describe?: () => string;
}

const declaredEnums = new Map<string, DeclaredEnum>();

/** The options of an ApiProperty holding that enum, the enum remembered for the document. */
export function declaredEnum(declared: DeclaredEnum): { enum: () => string[]; enumName: string } {
  declaredEnums.set(declared.name, declared);
  return { enum: () => [...declared.values()], enumName: declared.name };
}

/** Every enum given to declaredEnum. */
export function declaredEnumsOf(): readonly DeclaredEnum[] {
  return [...declaredEnums.values()];
}
