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
