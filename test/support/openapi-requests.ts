import fc from 'fast-check';

type Schema = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

/** One operation of a document, as a client could call it. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path as the document writes it: `/pets/{petId}`. */
  path: string;
  parameters: { in: string; name: string; required: boolean; schema: Schema }[];
  /** The media types of its body, and the schema of its JSON body, if it takes one. */
  body?: { mediaTypes: string[]; schema?: Schema };
}

/** A request made from an operation's declaration: valid members, hostile ones, or a mix. */
export interface GeneratedRequest {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: { mediaType: string; text: string };
}

/** Every operation of a document (those with an operationId), in the document's order. */
export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (typeof operation.operationId !== 'string') continue;
      const content = (operation.requestBody as Schema | undefined)?.content as
        Record<string, { schema?: Schema }> | undefined;
      operations.push({
        operationId: operation.operationId,
        method,
        path,
        parameters: ((operation.parameters as Schema[] | undefined) ?? []).map((parameter) => ({
          in: parameter.in as string,
          name: parameter.name as string,
          required: parameter.required === true,
          schema: (parameter.schema as Schema) ?? {},
        })),
        body: content && {
          mediaTypes: Object.keys(content),
          schema: content['application/json']?.schema,
        },
      });
    }
  }
  return operations;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Values no member's rules should take, of every JSON type, and text that breaks the text rule. */
const hostileValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  true,
  -1,
  0,
  1.5,
  MAX_SAFE + 2,
  1e308,
  -0,
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '\ud800',
  '\u202e\u0007',
  '1e3',
  '9'.repeat(40),
  [],
  [[[[[]]]]],
  {},
  { __proto__: null, constructor: { prototype: 1 } },
);

/** Text for a query, a path or a header: what a URL or a header can carry, hostile forms included. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'abc',
    '-1',
    '0',
    '1.5',
    '1e3',
    '0x10',
    '99999999999999999999',
    '9007199254740993',
    '%',
    '%00',
    '%E0%A4%A',
    '%2F..%2F',
    'true',
    'null',
    '[]',
    ' 1',
    '1 ',
    'x'.repeat(3000),
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/**
 * The schema a reference names, with `allOf` merged, so that a generator sees one object's
 * members; `oneOf` and `anyOf` are left to `validValue`.
 */
function resolved(schema: Schema, schemas: Record<string, Schema>, seen = 0): Schema {
  if (seen > 20) return {};
  if (typeof schema.$ref === 'string') {
    return resolved(schemas[schema.$ref.split('/').pop()!] ?? {}, schemas, seen + 1);
  }
  const parts = schema.allOf as Schema[] | undefined;
  if (!parts) return schema;
  const merged: Schema = { ...schema, allOf: undefined };
  for (const part of parts.map((p) => resolved(p, schemas, seen + 1))) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties')
        merged.properties = { ...(merged.properties as Schema), ...(value as Schema) };
      else if (key === 'required')
        merged.required = [...((merged.required as string[]) ?? []), ...(value as string[])];
      else merged[key] ??= value;
    }
  }
  return merged;
}

/** A value the schema allows (as far as the schema says: rules it does not state may refuse it). */
export function validValue(
  given: Schema,
  schemas: Record<string, Schema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolved(given, schemas);
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validValue(s, schemas, depth + 1)));
  let value: fc.Arbitrary<unknown>;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    value = fc.constantFrom(...(schema.enum as unknown[]));
  } else if (schema.type === 'integer') {
    const min = Math.max(typeof schema.minimum === 'number' ? schema.minimum : -1000, -MAX_SAFE);
    const max = Math.min(typeof schema.maximum === 'number' ? schema.maximum : 1000, MAX_SAFE);
    value = fc.oneof(fc.integer({ min, max: Math.min(max, min + 20) }), fc.integer({ min, max }));
  } else if (schema.type === 'number') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
    value = fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  } else if (schema.type === 'boolean') {
    value = fc.boolean();
  } else if (schema.type === 'string') {
    const examples = schema.example === undefined ? [] : [fc.constant(schema.example)];
    if (schema.format === 'date-time') {
      value = fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString());
    } else if (examples.length > 0 && (schema.format || schema.pattern)) {
      value = examples[0];
    } else {
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? 30), 30));
      value = fc.oneof(
        ...examples,
        fc.string({ minLength, maxLength }),
        fc.string({ unit: 'grapheme', minLength, maxLength }),
      );
    }
  } else if (schema.type === 'array' && depth < 4) {
    const items = (schema.items as Schema | undefined) ?? {};
    const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
    value = fc.array(memberValue(items, schemas, depth + 1), {
      minLength,
      maxLength: Math.max(minLength, Math.min(Number(schema.maxItems ?? 3), 3)),
    });
  } else if ((schema.type === 'object' || schema.properties) && depth < 4) {
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    const required = (schema.required as string[] | undefined) ?? [];
    value = fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          memberValue(property, schemas, depth + 1),
        ]),
      ),
      { requiredKeys: required.filter((name) => name in properties) },
    );
  } else {
    value = hostileValue;
  }
  return schema.nullable === true ? fc.oneof(value, fc.constant(null)) : value;
}

/** A member's value: mostly one the schema allows, sometimes a hostile one. */
function memberValue(schema: Schema, schemas: Record<string, Schema>, depth: number) {
  return fc.oneof(
    { weight: 5, arbitrary: validValue(schema, schemas, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** A value as a query, a path segment or a header carries it. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Requests for an operation, from its declaration: each parameter valid, hostile, or (when not
 * required) absent, sometimes an undeclared query parameter; a JSON body from its schema with
 * hostile members, or a body that is not what it says. `ids` are values a path parameter takes
 * often, so that requests reach objects that exist.
 */
export function requestsFor(
  operation: DocumentedOperation,
  schemas: Record<string, Schema>,
  ids: readonly number[],
): fc.Arbitrary<GeneratedRequest> {
  const parameter = (p: DocumentedOperation['parameters'][number]) => {
    const value = fc.oneof(
      { weight: 4, arbitrary: validValue(p.schema, schemas).map(asText) },
      { weight: 1, arbitrary: hostileText },
      ...(p.in === 'path' && ids.length > 0
        ? [{ weight: 4, arbitrary: fc.constantFrom(...ids).map(String) }]
        : []),
    );
    return p.required ? value : fc.option(value, { nil: undefined });
  };
  const parameters = fc.tuple(...operation.parameters.map(parameter));
  const unknownQuery = fc.option(
    fc.tuple(fc.constantFrom('page', 'Limit', 'x', '__proto__'), hostileText),
    {
      nil: undefined,
      freq: 8,
    },
  );
  const body: fc.Arbitrary<GeneratedRequest['body']> = operation.body
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...operation.body.mediaTypes),
              operation.body.schema ? validValue(operation.body.schema, schemas) : hostileValue,
            )
            .map(([mediaType, value]) => ({ mediaType, text: JSON.stringify(value) ?? 'null' })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...operation.body.mediaTypes, 'text/plain', 'application/json'),
              fc.oneof(
                hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
                fc.constantFrom('{', '{"a":1,"a":2}', '[1,]', '\u0000', '{"name":"\\ud800"}'),
              ),
            )
            .map(([mediaType, text]) => ({ mediaType, text })),
        },
      )
    : fc.constant(undefined);
  return fc.tuple(parameters, unknownQuery, body).map(([values, extra, requestBody]) => {
    let path = operation.path;
    const query: Record<string, string> = {};
    const headers: Record<string, string> = {};
    operation.parameters.forEach((p, index) => {
      const value = values[index];
      if (value === undefined) return;
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (p.in === 'query') query[p.name] = value;
      // A header carries visible ASCII only: anything else is refused by the client library itself.
      else if (p.in === 'header') headers[p.name] = value.replace(/[^\x20-\x7e]/g, '?');
    });
    if (extra) query[extra[0]] = extra[1];
    return { path, query, headers, body: requestBody };
  });
}
