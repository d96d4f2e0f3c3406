import Ajv, { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { apiClient, request, Response } from './support/http';
import { addPet, petBody } from './support/pets';
import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { operationsOf, requestsFor } from './support/openapi-requests';
import { startTestApp, TestApp } from './support/test-app';
import { ERROR_CODES } from '../src/common/error-codes';
import { SCOPES } from '../src/common/scopes';

/**
 * Generated requests, valid and invalid by the DTO rules, against the running service: never a
 * 5xx; an invalid request gets the right 4xx and the Error body; a valid one a 2xx whose body
 * matches the served OpenAPI document. Replay a failure with PROPERTY_SEED=<the printed seed>.
 */
// A property sends hundreds of requests, some of them large: never judged by its duration.
jest.setTimeout(120_000);

const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
const runs = Number(process.env.PROPERTY_RUNS ?? 1000);
const ADMIN_TOKEN = 'admin-token-for-the-property-suite-0123456789';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const STATUSES = ['available', 'pending', 'sold'] as const;

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe(`properties (seed ${seed}, ${runs} runs each)`, () => {
  let t: TestApp;
  let ajv: Ajv;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    console.log(
      `Property tests: seed ${seed}, ${runs} runs per property (PROPERTY_SEED=${seed} replays them).`,
    );
    // Every made-up key is looked up, not refused by the address's budget (rate-limits.e2e-spec.ts).
    t = await startTestApp({
      ADMIN_TOKEN,
      ANONYMOUS_PER_MINUTE: '1000000',
      ANONYMOUS_PER_DAY: '100000000',
    });
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema((await request(t.url).get('/v1/openapi.json')).body, 'public');
    ajv.addSchema((await request(t.url).get('/admin/openapi.json')).body, 'admin');
  });
  afterAll(() => t.close());

  /** Asserts the response matches the schema the document declares for it. */
  function expectDocumented(
    document: 'public' | 'admin',
    path: string,
    method: string,
    response: Response,
  ): void {
    const where = `${document}#/${pointer('paths', path, method, 'responses', String(response.status))}`;
    const key = `${where}/content`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({
        $ref: `${where}/${pointer('content', 'application/json', 'schema')}`,
      });
      validators.set(key, validate);
    }
    if (!validate(response.body)) {
      throw new Error(
        `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(response.body)}`,
      );
    }
  }

  function expectRefusal(response: Response, status: number, code: string): void {
    expect(response.status).toBeLessThan(500);
    expect({
      status: response.status,
      code: response.body.code,
      bodyStatus: response.body.status,
    }).toEqual({
      status,
      code,
      bodyStatus: status,
    });
    expect(typeof response.body.message).toBe('string');
  }

  /** The ids of `count` new pets, for a property to pick from. */
  const addPets = async (api: ReturnType<typeof apiClient>, count: number) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await addPet(api)).id);
    return ids;
  };

  /**
   * Any character a name may hold: mostly ASCII, and any other code point but the controls (C0,
   * DEL, C1: the one character rule of v1.3) and surrogates, astral included.
   */
  const character = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    fc.integer({ min: 0xa0, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0xffff }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  );
  /** Text of `min` to `max` characters, counted in code points as the contract counts them. */
  const text = (min: number, max: number) =>
    fc
      .array(character, { minLength: min, maxLength: max })
      .map((codes) => String.fromCodePoint(...codes));
  const validName = text(1, 100).filter((s) => /\S/.test(s));
  /** A name search: valid text holding at least 3 letters or digits (fewer would read every row). */
  const letterOrDigit = fc.constantFrom(...'aZ9é猫Ж٣'.split('').map((c) => c.codePointAt(0)!));
  const validSearch = fc
    .tuple(text(0, 48), fc.array(letterOrDigit, { minLength: 3, maxLength: 4 }), text(0, 48))
    .map(([before, meaningful, after]) => before + String.fromCodePoint(...meaningful) + after);
  /** Valid text with fewer than 3 letters or digits: a search refused. */
  const vagueSearch = fc
    .tuple(
      fc.array(fc.constantFrom(...' %_-.\\🐕'.split(/(?:)/u)), { minLength: 1, maxLength: 6 }),
      fc.array(letterOrDigit, { maxLength: 2 }),
    )
    .map(([symbols, meaningful]) => symbols.join('') + String.fromCodePoint(...meaningful))
    .filter((s) => /\S/.test(s));
  /** Text that breaks the text rule: too long, a NUL or control character, or a lone surrogate. */
  const hostileName = fc.oneof(
    text(101, 140),
    fc.tuple(text(0, 50), text(0, 50)).map(([before, after]) => `${before}\u0000${after}`),
    fc
      .tuple(
        text(0, 49),
        fc.oneof(fc.integer({ min: 0x01, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })),
        text(1, 50),
      )
      .map(([before, code, after]) => before + String.fromCharCode(code) + after),
    fc
      .tuple(text(0, 50), fc.integer({ min: 0xd800, max: 0xdfff }), text(0, 50))
      .filter(
        ([before, , after]) => !/[\ud800-\udbff]$/.test(before) && !/^[\udc00-\udfff]/.test(after),
      )
      .map(([before, unit, after]) => before + String.fromCharCode(unit) + after),
  );
  /**
   * JSON text of a value nested 33 to 2,000 levels deep (as arrays or objects: under 16 KiB either
   * way), written as text: serialising such a value would overflow the test's own stack first.
   */
  const deepJson = fc
    .tuple(fc.integer({ min: 33, max: 2000 }), fc.boolean())
    .map(([depth, arrays]) =>
      arrays
        ? '['.repeat(depth) + ']'.repeat(depth)
        : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    );
  /** A valid body with one of its properties, or an extra one, replaced by a deep value. */
  const deepBody = (valid: fc.Arbitrary<object>, keys: string[]) =>
    fc.tuple(valid, fc.constantFrom(...keys, 'extra'), deepJson).map(([body, key, deep]) => {
      const rest = JSON.stringify({ ...body, [key]: undefined }).slice(1, -1);
      return `{${rest}${rest ? ',' : ''}${JSON.stringify(key)}:${deep}}`;
    });
  const validPet = fc.record(
    {
      name: validName,
      categoryId: fc.integer({ min: 1, max: MAX_SAFE }),
      status: fc.constantFrom(...STATUSES),
    },
    { requiredKeys: ['name', 'categoryId'] },
  );
  const notAString = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 2 }),
  );
  const badCategory = fc.oneof(
    fc.integer({ max: 0 }),
    fc.bigInt({ min: BigInt(MAX_SAFE) + 1n, max: 10n ** 20n }).map(Number),
    fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: 1, max: 1000 }).map(String),
    fc.constant(null),
    fc.boolean(),
  );
  /** A valid pet with exactly one rule broken. */
  /**
   * Integers written as JSON.parse would round them into integers they are not: fractions and
   * exponents of integral value, fractions too small for a double, integers beyond 2^53 − 1.
   * As text: JSON.stringify would write them plainly.
   */
  const inexactInteger = fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: MAX_SAFE }), fc.integer({ min: 1, max: 5 }))
      .map(([n, zeros]) => `${n}.${'0'.repeat(zeros)}`),
    fc.integer({ min: 1, max: 1000 }).map((n) => `${n}.0000000000000001`),
    fc.constantFrom('9007199254740991.4', '9007199254740990.9'),
    fc
      .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom('e0', 'E0', 'e+0', '0e-1'))
      .map(([n, exponent]) => `${n}${exponent}`),
    fc.bigInt({ min: BigInt(MAX_SAFE) + 1n, max: 10n ** 30n }).map(String),
  );
  const invalidPet = fc.oneof(
    validPet.chain((p) =>
      fc.constantFrom(...['', ' ', '\t', 'x'.repeat(101)]).map((name) => ({ ...p, name })),
    ),
    validPet.chain((p) => notAString.map((name) => ({ ...p, name }))),
    validPet.chain((p) => hostileName.map((name) => ({ ...p, name }))),

    validPet.chain((p) => badCategory.map((categoryId) => ({ ...p, categoryId }))),
    validPet.chain((p) =>
      fc
        .oneof(
          fc.string().filter((s) => !(STATUSES as readonly string[]).includes(s)),
          fc.constant(null),
          fc.integer(),
        )
        .map((status) => ({ ...p, status })),
    ),
    validPet.map(({ name: _, ...rest }) => rest),
    validPet.map(({ categoryId: _, ...rest }) => rest),
    validPet.chain((p) =>
      fc
        .string({ minLength: 1, maxLength: 10, unit: 'grapheme-ascii' })
        .filter((k) => !['name', 'categoryId', 'status'].includes(k) && /^[a-z]+$/i.test(k))
        .map((k) => ({ ...p, [k]: 1 })),
    ),
    fc.oneof(
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.string(),
      fc.integer(),
      fc.constant(null),
    ),
  );

  it('POST /v1/pets creates every valid pet as sent, and refuses every invalid one with a 400', async () => {
    const api = apiClient(t.url, t.auth);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(validPet.map((body) => ({ valid: true, body }))),
        async ({ body }) => {
          const response = await api.post('/v1/pets').send(body);
          expect(response.status).toBe(201);
          expectDocumented('public', '/pets', 'post', response);
          expect(response.body).toEqual(
            petBody({ id: expect.any(Number), status: 'available', ...body }),
          );
          expect(response.headers.etag).toBe('"1"');
        },
      ),
      { seed, numRuns: runs / 2 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          invalidPet.map((body) => JSON.stringify(body)),
          deepBody(validPet, ['name', 'categoryId', 'status']),
        ),
        async (body) => {
          const response = await api
            .post('/v1/pets')
            .set('content-type', 'application/json')
            .send(body);
          expectRefusal(response, 400, 'validation_failed');
          expectDocumented('public', '/pets', 'post', response);
        },
      ),
      { seed, numRuns: runs / 2 },
    );
  });

  it('POST /v1/pets judges a number by its text: an integer JSON.parse would round is a 400 naming the field', async () => {
    const api = apiClient(t.url, t.auth);
    await fc.assert(
      fc.asyncProperty(validPet, inexactInteger, async (pet, literal) => {
        const body = JSON.stringify({ ...pet, categoryId: 0 }).replace(
          '"categoryId":0',
          `"categoryId":${literal}`,
        );
        const response = await api
          .post('/v1/pets')
          .set('content-type', 'application/json')
          .send(body);
        expectRefusal(response, 400, 'validation_failed');
        expect(response.body.message).toContain('categoryId');
        expectDocumented('public', '/pets', 'post', response);
      }),
      { seed, numRuns: runs / 2 },
    );
  });

  it('GET /v1/pets answers every valid query with a documented page and refuses every invalid one', async () => {
    const api = apiClient(t.url, t.auth);
    const validQuery = fc.record(
      {
        limit: fc.integer({ min: 1, max: 100 }).map(String),
        status: fc.constantFrom(...STATUSES),
        after: fc.bigInt({ min: 0n, max: 9223372036854775807n }).map(String),
        categoryId: fc.integer({ min: 1, max: MAX_SAFE }).map(String),
        name: validSearch,
      },
      { requiredKeys: [] },
    );
    const invalidQuery = fc.oneof(
      fc.record({ limit: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 })).map(String) }),
      fc.record({ limit: fc.string().filter((s) => !/^(100|[1-9][0-9]?)$/.test(s)) }),
      fc.record({
        status: fc.string().filter((s) => !(STATUSES as readonly string[]).includes(s)),
      }),
      fc.record({
        after: fc.oneof(
          fc.integer({ max: -1 }).map(String),
          fc.constant('1.5'),
          fc.constant('9223372036854775808'),
        ),
      }),
      fc.record({ colour: fc.string() }),
      fc.record({
        categoryId: fc.oneof(
          fc.integer({ max: 0 }).map(String),
          fc.bigInt({ min: BigInt(MAX_SAFE) + 1n, max: 10n ** 20n }).map(String),
          fc.constantFrom('1.5', '1e3', '01', ' 1', 'abc', ''),
        ),
      }),
      fc.record({
        name: fc.oneof(
          text(101, 140),
          vagueSearch,
          fc.constantFrom('', ' ', '\t \n', 'ab', '%_%', '🐕🐕🐕'),
          fc.tuple(text(0, 20), text(0, 20)).map(([a, b]) => `${a}\u0000${b}`),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          validQuery.map((q) => ({ q, valid: true })),
          invalidQuery.map((q) => ({ q, valid: false })),
        ),
        async ({ q, valid }) => {
          const response = await api.get('/v1/pets').query(q);
          if (valid) {
            expect(response.status).toBe(200);
            expect(response.body.length).toBeLessThanOrEqual(
              Number((q as { limit?: string }).limit ?? 20),
            );
          } else {
            expectRefusal(response, 400, 'validation_failed');
          }
          expectDocumented('public', '/pets', 'get', response);
        },
      ),
      { seed, numRuns: runs },
    );
  });

  it('PATCH /v1/pets/{petId} applies every valid patch under its precondition, refuses every invalid one, changing nothing', async () => {
    const api = apiClient(t.url, t.auth);
    const pets = await addPets(api, 5);
    const validPatch = fc.record(
      {
        name: validName,
        categoryId: fc.integer({ min: 1, max: MAX_SAFE }),
        status: fc.constantFrom(...STATUSES),
      },
      { requiredKeys: [] },
    );
    const invalidPatch = fc.oneof(
      fc.constantFrom('name', 'categoryId', 'status').map((field) => ({ [field]: null })),
      validPatch.chain((p) => notAString.map((name) => ({ ...p, name }))),
      validPatch.chain((p) => hostileName.map((name) => ({ ...p, name }))),
      validPatch.chain((p) => badCategory.map((categoryId) => ({ ...p, categoryId }))),
      validPatch.chain((p) =>
        fc
          .string()
          .filter((status) => !(STATUSES as readonly string[]).includes(status))
          .map((status) => ({ ...p, status })),
      ),
      validPatch.chain((p) =>
        fc
          .constantFrom('id', 'version', 'createdAt', 'updatedAt', 'deletedAt', 'extra')
          .map((k) => ({ ...p, [k]: 1 })),
      ),
      fc.oneof(fc.array(fc.integer(), { maxLength: 3 }), fc.string(), fc.integer()),
    );
    /** The If-Match a client sends, and what it asks: the current ETag, another, or nothing. */
    const ifMatch = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.constant({ kind: 'current' as const }),
      fc.constant({ kind: 'any' as const, header: '*' }),
      fc.integer({ min: 1, max: 5 }).map((n) => ({ kind: 'stale' as const, n })),
      fc.constant({ kind: 'weak' as const }),
      fc
        .oneof(
          fc.integer({ min: 1, max: 10 }).map(String),
          fc.constantFrom('"1', 'W/ "1"', 'w/"1"', '*, "1"', '"1" "2"', '"a"b"', ''),
          // Without a double quote only `*` could be an If-Match value.
          fc
            .string({ unit: 'grapheme-ascii', maxLength: 20 })
            .filter((v) => !v.includes('"') && v.trim() !== '*'),
        )
        .map((header) => ({ kind: 'malformed' as const, header })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...pets),
        fc.oneof(
          validPatch.map((body) => ({ valid: true, body: JSON.stringify(body), patch: body })),
          fc
            .oneof(
              invalidPatch.map((body) => JSON.stringify(body)),
              inexactInteger.map((literal) => `{"categoryId":${literal}}`),
              deepBody(validPatch, ['name', 'categoryId', 'status']),
            )
            .map((body) => ({ valid: false, body, patch: {} })),
        ),
        ifMatch,
        fc.constantFrom('application/json', 'application/merge-patch+json'),
        async (id, { valid, body, patch }, precondition, contentType) => {
          const before = (await api.get(`/v1/pets/${id}`)).body;
          const header =
            precondition.kind === 'none'
              ? undefined
              : precondition.kind === 'current'
                ? `"${before.version}"`
                : precondition.kind === 'stale'
                  ? `"${before.version + precondition.n}"`
                  : precondition.kind === 'weak'
                    ? `W/"${before.version}"`
                    : precondition.header;
          let call = api.patch(`/v1/pets/${id}`).set('content-type', contentType);
          if (header !== undefined) call = call.set('if-match', header);
          const response = await call.send(body);
          expectDocumented('public', '/pets/{petId}', 'patch', response);
          if (!valid || precondition.kind === 'malformed') {
            expectRefusal(response, 400, 'validation_failed');
          } else if (precondition.kind === 'stale' || precondition.kind === 'weak') {
            expectRefusal(response, 412, 'precondition_failed');
          } else {
            expect(response.status).toBe(200);
            const expected = { ...before, ...patch };
            const changed = ['name', 'categoryId', 'status'].some(
              (field) => expected[field] !== before[field],
            );
            expect(response.body).toMatchObject({
              ...expected,
              version: before.version + (changed ? 1 : 0),
              updatedAt: expect.any(String),
            });
            expect(response.headers.etag).toBe(`"${response.body.version}"`);
            return;
          }
          expect((await api.get(`/v1/pets/${id}`)).body).toEqual(before);
        },
      ),
      { seed, numRuns: runs / 2 },
    );
  });

  it('DELETE /v1/pets/{petId} answers 204, 404, 412 or 400 to every id and If-Match, never a 5xx', async () => {
    const api = apiClient(t.url, t.auth);
    const pets = await addPets(api, 40);
    const id = fc.oneof(
      fc.constantFrom(...pets).map(String),
      fc.bigInt({ min: 1n, max: 9223372036854775807n }).map(String),
      fc.constantFrom('0', '-1', '1.5', '01', 'abc', '9223372036854775808'),
    );
    const ifMatch = fc.option(
      fc.oneof(
        fc.constantFrom('"1"', '"2"', 'W/"1"', '*', '"1", "2"'),
        fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(id, ifMatch, async (petId, header) => {
        let call = api.delete(`/v1/pets/${encodeURIComponent(petId)}`);
        if (header !== null) call = call.set('if-match', header);
        const response = await call;
        expect([204, 400, 404, 412]).toContain(response.status);
        if (response.status !== 204) {
          expectRefusal(response, response.status, response.body.code);
          expectDocumented('public', '/pets/{petId}', 'delete', response);
        }
      }),
      { seed, numRuns: runs / 4 },
    );
  });

  it('the categories answer every name and query as documented: 200, 201, 409 or 400, never a 5xx', async () => {
    const api = apiClient(t.url, t.auth);
    /**
     * A word (letters, marks and digits, once invisible characters are gone) with letters of two of
     * Latin, Cyrillic and Greek: a unique name may not have one (docs/api.md, "Categories").
     */
    const mixesScripts = (name: string) =>
      name
        .replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu, '')
        .normalize('NFKC')
        .split(/[^\p{L}\p{M}\p{Nd}]+/u)
        .some(
          (word) =>
            [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u].filter((script) =>
              script.test(word),
            ).length > 1,
        );
    const categoryName = text(1, 50).filter((s) => /\S/.test(s) && !mixesScripts(s));
    const validPut = fc.record({
      id: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: MAX_SAFE })),
      body: fc.record({ name: fc.oneof(categoryName, fc.constantFrom('Dogs', 'DOGS', 'dogs')) }),
    });
    const invalidPut = fc.oneof(
      fc.record({
        id: fc.oneof(
          fc.constantFrom('0', '-1', '1.5', 'abc', '9007199254740992', '9223372036854775808'),
        ),
        body: fc.record({ name: categoryName }),
      }),
      fc.record({
        id: fc.integer({ min: 1, max: 30 }),
        body: fc.oneof(
          fc.record({ name: fc.oneof(text(51, 80), notAString, hostileName) }),
          fc.record({ name: categoryName, id: fc.integer() }),
          fc.constant({}),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          validPut.map((call) => ({ ...call, valid: true })),
          invalidPut.map((call) => ({ ...call, valid: false })),
        ),
        async ({ id, body, valid }) => {
          const response = await api
            .put(`/v1/categories/${encodeURIComponent(String(id))}`)
            .send(body);
          expectDocumented('public', '/categories/{categoryId}', 'put', response);
          if (!valid) return expectRefusal(response, 400, 'validation_failed');
          expect([200, 201, 409]).toContain(response.status);
          if (response.status === 409) expect(response.body.code).toBe('already_exists');
          else expect(response.body).toEqual({ id, name: (body as { name: string }).name });
        },
      ),
      { seed, numRuns: runs / 2 },
    );
    const listed = await api.get('/v1/categories?limit=100');
    expect(listed.status).toBe(200);
    expectDocumented('public', '/categories', 'get', listed);
    const lowered = listed.body
      .map((c: { name: string | null }) => c.name?.toLowerCase())
      .filter((name: string | undefined) => name !== undefined);
    expect(new Set(lowered).size).toBe(lowered.length);
  });

  it('the store answers every order and update body as documented: 2xx, 404, 409 or 400, never a 5xx', async () => {
    const api = apiClient(t.url, t.auth);
    const shelter = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['orders:manage'], organizationId: '1' })).auth,
    );
    const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled'];
    // Pets to order: the ids the property picks from, beside ids no pet has.
    const pets = await addPets(api, 5);
    const validOrder = fc.record({
      petId: fc.oneof(fc.constantFrom(...pets), fc.integer({ min: 1, max: MAX_SAFE })),
    });
    const invalidOrder = fc.oneof(
      validOrder.chain((o) => badCategory.map((petId) => ({ ...o, petId }))),
      fc.constant({}),
      validOrder.chain((o) =>
        fc
          .string({ minLength: 1, maxLength: 10, unit: 'grapheme-ascii' })
          .filter((k) => k !== 'petId' && /^[a-z]+$/i.test(k))
          .map((k) => ({ ...o, [k]: 1 })),
      ),
      fc.oneof(fc.array(fc.integer(), { maxLength: 3 }), fc.string(), fc.constant(null)),
    );
    const invalidUpdate = fc.oneof(
      fc.constant({}),
      fc
        .oneof(fc.string(), fc.constant(null), fc.integer(), fc.constant('placed'))
        .filter((status) => !['approved', 'delivered', 'cancelled'].includes(status as string))
        .map((status) => ({ status })),
      fc.record({ status: fc.constant('cancelled'), petId: fc.integer() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          validOrder.map((body) => ({ kind: 'place' as const, body: JSON.stringify(body) })),
          fc
            .oneof(
              invalidOrder.map((body) => JSON.stringify(body)),
              deepBody(validOrder, ['petId']),
            )
            .map((body) => ({ kind: 'refused order' as const, body })),
          fc
            .tuple(
              fc.constantFrom('approved', 'delivered', 'cancelled'),
              fc.integer({ min: 1, max: 40 }),
            )
            .map(([status, id]) => ({
              kind: 'move' as const,
              id,
              body: JSON.stringify({ status }),
            })),
          fc
            .oneof(
              invalidUpdate.map((b) => JSON.stringify(b)),
              deepJson,
            )
            .map((body) => ({ kind: 'refused move' as const, id: 1, body })),
        ),
        async (call) => {
          if (call.kind === 'place' || call.kind === 'refused order') {
            const response = await api
              .post('/v1/store/orders')
              .set('content-type', 'application/json')
              .send(call.body);
            if (call.kind === 'refused order') expectRefusal(response, 400, 'validation_failed');
            else expect([201, 404, 409]).toContain(response.status);
            expectDocumented('public', '/store/orders', 'post', response);
            return;
          }
          const response = await shelter
            .patch(`/v1/store/orders/${call.id}`)
            .set('content-type', 'application/merge-patch+json')
            .send(call.body);
          if (call.kind === 'refused move') expectRefusal(response, 400, 'validation_failed');
          else expect([200, 404, 409]).toContain(response.status);
          if (response.status === 200) expect(ORDER_STATUSES).toContain(response.body.status);
          expectDocumented('public', '/store/orders/{orderId}', 'patch', response);
        },
      ),
      { seed, numRuns: runs / 2 },
    );
  });

  it('answers every made-up bearer token with a 401', async () => {
    const base64url = fc.string({
      unit: fc.constantFrom(
        ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''),
      ),
      minLength: 43,
      maxLength: 43,
    });
    const token = fc.oneof(
      base64url.map((secret) => `pet_test_${secret}`),
      base64url.map((secret) => `pet_live_${secret}`),
      fc.string({ unit: 'grapheme-ascii', maxLength: 200 }),
      fc.string({
        unit: fc.constantFrom(...'abcXYZ019-._~+/='.split('')),
        minLength: 1,
        maxLength: 300,
      }),
    );
    const header = fc.oneof(
      token.map((value) => `Bearer ${value}`),
      token.map((value) => `bearer    ${value}`),
      token,
      token.map((value) => `Basic ${value}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        const response = await request(t.url).get('/v1/pets').set('authorization', authorization);
        expectRefusal(response, 401, 'unauthorized');
        expectDocumented('public', '/pets', 'get', response);
      }),
      { seed, numRuns: runs },
    );
  });

  it('GET /v1/pets/{petId} answers 200 or 404 to every id and 400 to everything else', async () => {
    const api = apiClient(t.url, t.auth);
    const id = fc.bigInt({ min: 1n, max: 9223372036854775807n }).map(String);
    const notId = fc.oneof(
      fc.constantFrom('0', '-1', '1.5', '1e3', '01', '9223372036854775808'),
      fc
        .string({ minLength: 1, maxLength: 30, unit: 'grapheme-ascii' })
        .filter(
          (s) =>
            !/^[1-9][0-9]*$/.test(s) &&
            !/[/?#%\\]/.test(s) &&
            s.trim() === s &&
            s !== '.' &&
            s !== '..',
        ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          id.map((v) => ({ v, valid: true })),
          notId.map((v) => ({ v, valid: false })),
        ),
        async ({ v, valid }) => {
          const response = await api.get(`/v1/pets/${encodeURIComponent(v)}`);
          if (valid) expect([200, 404]).toContain(response.status);
          else expectRefusal(response, 400, 'validation_failed');
          expectDocumented('public', '/pets/{petId}', 'get', response);
        },
      ),
      { seed, numRuns: runs },
    );
  });

  it('POST /admin/api-keys issues every valid key and refuses every invalid request with a 400', async () => {
    const admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const limits = fc
      .integer({ min: 1, max: 1_000_000 })
      .chain((perMinute) =>
        fc.integer({ min: perMinute, max: 1_000_000_000 }).map((perDay) => ({ perMinute, perDay })),
      );
    const valid = fc.oneof(
      fc.record({ name: validName, plan: fc.constantFrom('free', 'pro', 'business') }),
      fc.record({ name: validName, plan: fc.constant('enterprise'), limits }),
    );
    const invalid = fc.oneof(
      fc.record({
        name: validName,
        plan: fc.string().filter((s) => !['free', 'pro', 'business', 'enterprise'].includes(s)),
      }),
      fc.record({ name: validName, plan: fc.constant('enterprise') }),
      fc.record({ name: validName, plan: fc.constantFrom('free', 'pro', 'business'), limits }),
      fc.record({
        name: validName,
        plan: fc.constant('enterprise'),
        limits: fc.record({ perMinute: fc.integer({ max: 0 }), perDay: fc.integer({ min: 1 }) }),
      }),
      fc.record({ name: notAString, plan: fc.constant('free') }),
      fc.record({ name: hostileName, plan: fc.constant('free') }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          valid.map((b) => ({ b: JSON.stringify(b), ok: true })),
          invalid.map((b) => ({ b: JSON.stringify(b), ok: false })),
          deepBody(valid, ['name', 'plan', 'limits']).map((b) => ({ b, ok: false })),
        ),
        async ({ b, ok }) => {
          const response = await admin
            .post('/admin/api-keys')
            .set('content-type', 'application/json')
            .send(b);
          if (ok) expect(response.status).toBe(201);
          else expectRefusal(response, 400, 'validation_failed');
          expectDocumented('admin', '/admin/api-keys', 'post', response);
        },
      ),
      { seed, numRuns: runs / 2 },
    );
  });

  describe('every operation of both documents, from its declaration alone', () => {
    /** Requests per operation: a new route is fuzzed as soon as the document declares it. */
    const perOperation = Math.max(10, Math.round(runs / 25));

    // Its own database: generated requests change what every spec keeps (organisation 1, keys).
    let database: FreshDatabase | undefined;
    let u: TestApp | undefined;
    afterAll(async () => {
      await u?.close();
      await database?.drop();
    });

    it('never answers 5xx: a refusal is an Error body of the closed set, a success as documented', async () => {
      database = await freshDatabase();
      u = await startTestApp({
        DATABASE_URL: database.url,
        ADMIN_TOKEN,
        ANONYMOUS_PER_MINUTE: '1000000',
        ANONYMOUS_PER_DAY: '100000000',
      });
      const app = u;
      const admin = apiClient(app.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
      // A key that may do everything (the first-run key's kind), issued again when a generated
      // request revoked or rolled it: its id is among the ids the paths are given.
      const everything = async () =>
        apiClient(
          app.url,
          (
            await app.issueKey({
              plan: 'enterprise',
              limits: { perMinute: 1e6, perDay: 1e8, openOrders: 1000, webhookEndpoints: 1000 },
              scopes: [...SCOPES],
              organizationId: '1',
            })
          ).auth,
        );
      let api = await everything();
      const [pet] = await addPets(api, 2);
      const order = await api.post('/v1/store/orders').send({ petId: pet }).expect(201);
      const endpoint = await api
        .post('/v1/webhook-endpoints')
        .send({ url: 'https://hooks.example/fuzz', events: ['*'] })
        .expect(201);
      const ids = [1, 2, 3, pet, order.body.id, endpoint.body.id];

      const documents = [
        ['public', '/v1', (await request(app.url).get('/v1/openapi.json')).body],
        ['admin', '', (await request(app.url).get('/admin/openapi.json')).body],
      ] as const;
      const validError = ajv.compile({ $ref: 'public#/components/schemas/Error' });
      let sent = 0;
      for (const [document, base, body] of documents) {
        const schemas = body.components?.schemas ?? {};
        const operations = operationsOf(body);
        expect(operations.length).toBeGreaterThan(document === 'public' ? 25 : 5);
        for (const operation of operations) {
          await fc.assert(
            fc.asyncProperty(requestsFor(operation, schemas, ids), async (generated) => {
              const client = document === 'admin' ? admin : api;
              let call = client[operation.method as 'get'](`${base}${generated.path}`)
                .query(generated.query)
                .set(generated.headers);
              if (generated.body) {
                call = call.set('content-type', generated.body.mediaType).send(generated.body.text);
              }
              const response = await call;
              sent += 1;
              const what = `${operation.operationId} ${JSON.stringify(generated)} answered ${response.status} ${JSON.stringify(response.body)}`;
              if (response.status >= 500) throw new Error(what);
              if (response.status >= 400) {
                if (
                  !(response.body.code in ERROR_CODES) ||
                  response.body.status !== response.status
                ) {
                  throw new Error(`Not an Error body of the closed set: ${what}`);
                }
                // A refusal the operation does not declare (a 404 from the router for an empty
                // segment, say) is held to the Error schema itself.
                const declared = body.paths[operation.path][operation.method].responses;
                if (String(response.status) in declared) {
                  expectDocumented(document, operation.path, operation.method, response);
                } else if (!validError(response.body)) {
                  throw new Error(`${ajv.errorsText(validError.errors)}: ${what}`);
                }
                if (response.status === 401 && document === 'public') api = await everything();
              } else if (response.type === 'application/json') {
                expectDocumented(document, operation.path, operation.method, response);
              }
            }),
            { seed, numRuns: perOperation },
          );
        }
      }
      console.log(`Every operation: ${sent} generated requests.`);
    });
  });
});
