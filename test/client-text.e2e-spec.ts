import { SCOPES } from '../src/common/scopes';
import { apiClient, expectError, request } from './support/http';
import { DeclaredInput, declaredInputs, sampleString, sampleValue } from './support/openapi-inputs';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * One character rule for every string a client sends (docs/api.md, "Hostile input"): NUL, lone
 * surrogates and C0/C1 controls are a 400 in any member of any body or query, whatever that
 * member's own rules are; tab and line breaks only in prose (descriptions, adoption policies).
 * The members come from the OpenAPI documents, so a new one is covered without editing this spec.
 */
jest.setTimeout(120_000);

/** Characters no client string may hold, tab and line breaks included outside prose. */
const REFUSED = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\t',
  '\r',
  '\n',
];

/** Members that are prose of several lines: tab and line breaks are characters of them. */
const PROSE =
  /^(create|update)(WebhookEndpoint body\.description|Organization body\.adoptionPolicy|Pet body\.description)$/;
const LINES = ['\t', '\r', '\n'];
/** A lone surrogate cannot travel in a URL (UTF-8 has no encoding of it): see query-strings.e2e. */
const SURROGATES = ['\ud800', '\udfff'];

interface OperationObject {
  operationId: string;
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}

/** `value` as the member at `member` (`address.city`, `events[]`) of `body`. */
function placed(body: Record<string, unknown>, member: string, value: string) {
  const copy = structuredClone(body);
  const names = member.split('.');
  let at = copy;
  for (const name of names.slice(0, -1)) {
    const key = name.replace(/\[\]$/, '');
    if (name.endsWith('[]')) {
      // An array of objects (`questions[].id`): the member goes into its first element.
      const items = Array.isArray(at[key]) ? (at[key] as unknown[]) : [];
      const first = items[0];
      items[0] = typeof first === 'object' && first !== null ? first : {};
      at[key] = items;
      at = items[0] as Record<string, unknown>;
      continue;
    }
    at[key] = typeof at[key] === 'object' && at[key] !== null ? at[key] : {};
    at = at[key] as Record<string, unknown>;
  }
  const last = names[names.length - 1];
  if (last.endsWith('[]')) at[last.slice(0, -2)] = [value];
  else at[last] = value;
  return copy;
}

describe('client text: one character rule for every string', () => {
  const ADMIN_TOKEN = 'client-text-suite-admin-token-0123456789';
  let t: TestApp;
  let admin: ReturnType<typeof apiClient>;
  let staff: ReturnType<typeof apiClient>;
  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) FROM ${table}`))[0].count);

  beforeAll(async () => {
    // Every refused character is tried on createWebhookEndpoint: beyond its budget of 10 a minute.
    t = await startTestApp({ ADMIN_TOKEN, WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '10000' });
    await resetDatabase(t.dataSource);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    // Every scope, a generated feature's included, so that only the text rule refuses.
    staff = apiClient(t.url, (await t.issueKey({ organizationId: '1', scopes: [...SCOPES] })).auth);
  });
  afterAll(() => t.close());

  describe('every string member of every body and query the documents declare', () => {
    /**
     * For each operation with a JSON body, its required members with sample values, from its
     * document: a body its validation accepts, into which one member at a time is replaced.
     */
    const bodies: Record<string, Record<string, unknown>> = {};
    let inputs: (DeclaredInput & { client: ReturnType<typeof apiClient>; prefix: string })[];
    let ids: Record<string, string>;

    beforeAll(async () => {
      inputs = [];
      for (const [document, client] of [
        ['/v1/openapi.json', staff],
        ['/admin/openapi.json', admin],
      ] as const) {
        const body = (await request(t.url).get(document).expect(200)).body;
        const prefix = new URL(body.servers[0].url).pathname.replace(/\/$/, '');
        for (const operations of Object.values<Record<string, OperationObject>>(body.paths)) {
          for (const operation of Object.values(operations)) {
            const schema = operation.requestBody?.content?.['application/json']?.schema;
            if (!schema) continue;
            bodies[operation.operationId] = sampleValue(schema, body) as Record<string, unknown>;
          }
        }
        for (const input of declaredInputs(body)) {
          const where = input.member.split('.')[0];
          if ((where === 'body' || where === 'query') && input.schema.type === 'string') {
            inputs.push({ ...input, client, prefix });
          }
        }
      }
      const pet = await staff.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
      const endpoint = await staff
        .post('/v1/webhook-endpoints')
        .send({ url: 'https://hooks.example/x', events: ['*'] })
        .expect(201);
      ids = { petId: pet.body.id, endpointId: endpoint.body.id, organizationId: '1' };
    });

    it('finds the members (bodies and queries of both documents)', () => {
      const members = inputs.map(({ operationId, member }) => `${operationId} ${member}`);
      expect(members).toEqual(
        expect.arrayContaining([
          'createPet body.name',
          'createWebhookEndpoint body.url',
          'createWebhookEndpoint body.events[]',
          'updateOrganization body.address.city',
          'issueOrganizationKey body.scopes[]',
          'listPets query.name',
          'issueApiKey body.name',
          'createOrganization body.email',
        ]),
      );
    });

    it.each(REFUSED.map((character) => [JSON.stringify(character), character]))(
      'refuses %s in each of them with 400 naming that member alone',
      async (_, character) => {
        const failures: string[] = [];
        for (const input of inputs) {
          const where = input.member.split('.')[0];
          if (LINES.includes(character) && PROSE.test(`${input.operationId} ${input.member}`)) {
            continue;
          }
          if (SURROGATES.includes(character) && where === 'query') continue;
          const sample = sampleString(input.schema);
          const value = sample.slice(0, -1) + character + sample.slice(-1);
          const path =
            input.prefix + input.path.replace(/\{(\w+)\}/g, (_, name) => String(ids[name] ?? 1));
          const member = input.member.split('.').slice(1).join('.');
          const method = input.method as 'post' | 'put' | 'patch' | 'get';
          const response =
            where === 'body'
              ? await input.client[method](path).send(
                  placed(bodies[input.operationId], member, value),
                )
              : await input.client[method](path).query({ [member]: value });
          const field = member.replace(/\[\]/g, '');
          // Only that member is named: the rest of the body was valid, so the refusal is its own.
          const details: { field: string }[] = response.body.details ?? [];
          const named =
            details.length > 0 &&
            details.every((detail) => detail.field.replace(/\.\d+(?=\.|$)/g, '') === field);
          if (response.status !== 400 || response.body.code !== 'validation_failed' || !named) {
            failures.push(
              `${input.operationId} ${input.member}: ${response.status} ${response.text}`,
            );
          }
        }
        expect(failures).toEqual([]);
      },
    );
  });

  describe('webhook URLs', () => {
    it.each([
      ['a tab', 'https://hooks.exa\tmple/x'],
      ['a carriage return', 'https://hooks.example/x\r'],
      ['a line feed', 'https://hooks.example/\nx'],
      ['CR LF and a header', 'https://hooks.example/x\r\nX-Injected: 1'],
      ['NUL', 'https://hooks.example/x\u0000'],
      ['a lone surrogate', 'https://hooks.example/\ud800'],
      ['a C1 control', 'https://hooks.example/\u0085'],
    ])('with %s are a 400, never stored', async (_, url) => {
      const before = await count('webhook_endpoints');
      const created = await staff.post('/v1/webhook-endpoints').send({ url, events: ['*'] });
      expect(expectError(created, 400, 'validation_failed').body.details).toEqual([
        expect.objectContaining({ field: 'url', issue: 'format' }),
      ]);
      const endpoint = await staff
        .post('/v1/webhook-endpoints')
        .send({ url: 'https://hooks.example/ok', events: ['*'] })
        .expect(201);
      expectError(
        await staff.patch(`/v1/webhook-endpoints/${endpoint.body.id}`).send({ url }),
        400,
        'validation_failed',
      );
      const [row] = await t.dataSource.query('SELECT url FROM webhook_endpoints WHERE id = $1', [
        endpoint.body.id,
      ]);
      expect(row.url).toBe('https://hooks.example/ok');
      expect(await count('webhook_endpoints')).toBe(before + 1);
    });

    it('are stored and answered as parsed (the href), at creation and at update', async () => {
      const created = await staff
        .post('/v1/webhook-endpoints')
        .send({ url: 'HTTPS://Hooks.EXAMPLE:443/a b/../c?x=1 2#f', events: ['*'] })
        .expect(201);
      expect(created.body.url).toBe('https://hooks.example/c?x=1%202#f');
      const changed = await staff
        .patch(`/v1/webhook-endpoints/${created.body.id}`)
        .send({ url: 'https://[2606:4700:0:0::1111]:8443/Ä' })
        .expect(200);
      expect(changed.body.url).toBe('https://[2606:4700::1111]:8443/%C3%84');
      const [row] = await t.dataSource.query('SELECT url FROM webhook_endpoints WHERE id = $1', [
        created.body.id,
      ]);
      expect(row.url).toBe('https://[2606:4700::1111]:8443/%C3%84');
    });
  });

  it('takes tab and line breaks in prose: descriptions and an adoption policy', async () => {
    const description = 'Shelter hooks\r\n\tsecond line';
    const endpoint = await staff
      .post('/v1/webhook-endpoints')
      .send({ url: 'https://hooks.example/p', events: ['*'], description })
      .expect(201);
    expect(endpoint.body.description).toBe(description);
    const policy = 'Home visit first.\nThen:\n\t1. meet the dog';
    const organization = await admin
      .post('/admin/organizations')
      .send({
        name: `Prose Rescue ${Date.now()}`,
        email: 'adopt@prose.example',
        address: { city: 'Bristol', country: 'GB' },
        adoptionPolicy: policy,
      })
      .expect(201);
    expect(organization.body.adoptionPolicy).toBe(policy);
    const issued = await admin
      .post('/admin/api-keys')
      .send({
        name: 'staff',
        plan: 'pro',
        scopes: ['organization:manage'],
        organizationId: organization.body.id,
      })
      .expect(201);
    const own = apiClient(t.url, { authorization: `Bearer ${issued.body.key}` });
    const path = `/v1/organizations/${organization.body.id}`;
    expect((await own.patch(path).send({ adoptionPolicy: `${policy}\r\n` })).status).toBe(200);
    expectError(
      await own.patch(path).send({ adoptionPolicy: 'Bell\u0007' }),
      400,
      'validation_failed',
    );
    expectError(await own.patch(path).send({ name: 'Two\nlines' }), 400, 'validation_failed');

    // An animal's description, on its create and its change; its tags are no prose.
    const about = 'Calm.\r\n\tLoves walks.';
    const pet = await staff
      .post('/v1/pets')
      .send({ name: 'Rex', categoryId: 1, description: about });
    expect({ status: pet.status, description: pet.body.description }).toEqual({
      status: 201,
      description: about,
    });
    const changed = await staff
      .patch(`/v1/pets/${pet.body.id}`)
      .send({ description: `${about}\n` });
    expect(changed.body.description).toBe(`${about}\n`);
    expectError(
      await staff.patch(`/v1/pets/${pet.body.id}`).send({ tags: ['two\nlines'] }),
      400,
      'validation_failed',
    );
  });
});
