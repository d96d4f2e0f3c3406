/** One input member an operation declares in its OpenAPI document. */
export interface DeclaredInput {
  operationId: string;
  method: string;
  path: string;
  /** `body.address.city`, `query.name`, `path.eventId`, `header.If-Match`; `[]` for items. */
  member: string;
  schema: Record<string, unknown>;
}

type Schema = Record<string, unknown>;
type Document = {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
};

/**
 * Every input member of every operation of an OpenAPI document (references followed, `allOf`,
 * `oneOf` and `anyOf` walked), so that a rule that must hold for every input is tested against
 * every input the service declares, and a new one is covered without editing the spec.
 */
export function declaredInputs(document: Document): DeclaredInput[] {
  const schemas = document.components?.schemas ?? {};
  const found: DeclaredInput[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const operationId = operation.operationId as string | undefined;
      if (!operationId) continue;
      const add = (member: string, schema: Schema) =>
        found.push({ operationId, method, path, member, schema });
      const walk = (schema: Schema, member: string, seen: Set<string>) => {
        const ref = schema.$ref as string | undefined;
        if (ref) {
          const name = ref.split('/').pop()!;
          if (seen.has(name)) return;
          return walk(schemas[name], member, new Set([...seen, name]));
        }
        for (const key of ['allOf', 'oneOf', 'anyOf']) {
          for (const part of (schema[key] as Schema[] | undefined) ?? []) walk(part, member, seen);
        }
        if (schema.type !== undefined || schema.enum !== undefined) add(member, schema);
        for (const [name, property] of Object.entries((schema.properties as Schema) ?? {})) {
          walk(property as Schema, `${member}.${name}`, seen);
        }
        if (schema.items) walk(schema.items as Schema, `${member}[]`, seen);
      };
      const body = (operation.requestBody as Schema | undefined)?.content as
        Record<string, { schema?: Schema }> | undefined;
      if (body?.['application/json']?.schema) {
        walk(body['application/json'].schema, 'body', new Set());
      }
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) {
        walk((parameter.schema as Schema) ?? {}, `${parameter.in}.${parameter.name}`, new Set());
      }
    }
  }
  return found;
}

/** A valid value of a string member, as far as its schema says. */
export function sampleString(schema: Schema): string {
  if (typeof schema.example === 'string') return schema.example;
  if (Array.isArray(schema.enum) && typeof schema.enum[0] === 'string') return schema.enum[0];
  if (schema.format === 'date-time') return '2027-01-01T00:00:00Z';
  if (schema.format === 'uri') return 'https://hooks.example/x';
  return 'Sample name';
}

/**
 * The smallest value a schema allows as far as it states: an object of its required members, each
 * a sample of its own (the example, the first enum value, the minimum, one item), so that a spec
 * can vary one member of a body that is otherwise accepted. Rules the schema does not state (a
 * member naming a stored object) are the spec's to supply.
 */
export function sampleValue(given: Schema, document: Document, depth = 0): unknown {
  const schemas = document.components?.schemas ?? {};
  let schema = given;
  while (typeof schema.$ref === 'string') schema = schemas[schema.$ref.split('/').pop()!] ?? {};
  const first = ((schema.allOf ?? schema.oneOf ?? schema.anyOf) as Schema[] | undefined)?.[0];
  if (first && depth < 8) return sampleValue(first, document, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'string') return sampleString(schema);
  if (schema.type === 'integer' || schema.type === 'number') {
    return typeof schema.minimum === 'number' ? schema.minimum : 1;
  }
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') {
    return depth < 8 ? [sampleValue((schema.items as Schema) ?? {}, document, depth + 1)] : [];
  }
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  return Object.fromEntries(
    required
      .filter((name) => name in properties && depth < 8)
      .map((name) => [name, sampleValue(properties[name], document, depth + 1)]),
  );
}
