import { ERROR_CODES, ErrorCode } from '../src/common/error-codes';
import { apiClient, expectError, request, Response } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const PUBLIC_BASE_URL = 'https://pets.example/v1';
const ADMIN_TOKEN = 'error-body-suite-admin-token-0123456789abcdef';

/** The HTML text of the catalogue's sentences, as the errors page writes them. */
const asHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/`([^`]+)`/g, '<code>$1</code>');

describe('the Error body: requestId, docUrl and details (v1.3)', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;
  let listPetsParameters: string[];

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL, ADMIN_TOKEN });
    api = apiClient(t.url, t.auth);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const document = (await request(t.url).get('/v1/openapi.json')).body;
    listPetsParameters = (document.paths['/pets'].get.parameters as { name: string; in: string }[])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
  });
  afterAll(() => t.close());

  /** The details of a validation_failed answer, after checking the whole body. */
  const detailsOf = (response: Response) =>
    expectError(response, 400, 'validation_failed').body.details;

  describe('requestId', () => {
    it('is the response’s X-Request-Id: the client’s own when it sent a plain one, else a new one', async () => {
      const given = await api.get('/v1/pets/0').set('x-request-id', 'trace-42');
      expect(given.headers['x-request-id']).toBe('trace-42');
      expect(expectError(given, 400, 'validation_failed').body.requestId).toBe('trace-42');

      const made = expectError(await request(t.url).get('/v1/pets'), 401, 'unauthorized');
      expect(made.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(made.body.requestId).toBe(made.headers['x-request-id']);
    });
  });

  describe('docUrl', () => {
    it('points at the section of the served errors page that explains the code, and what to do', async () => {
      const answers: [Response, number, ErrorCode][] = [
        [await api.get('/v1/pets?limit=0'), 400, 'validation_failed'],
        [
          await api.post('/v1/pets').set('content-type', 'application/json').send('{"name":'),
          400,
          'malformed_json',
        ],
        [await request(t.url).get('/v1/pets'), 401, 'unauthorized'],
        [await api.get('/v1/nope'), 404, 'not_found'],
        [await api.put('/v1/pets'), 405, 'method_not_allowed'],
        [
          await api.post('/v1/pets').set('content-type', 'text/plain').send('x'),
          415,
          'unsupported_media_type',
        ],
      ];
      const page = await request(t.url).get('/v1/docs/errors');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      for (const [response, status, code] of answers) {
        const { docUrl } = expectError(response, status, code).body;
        expect(docUrl).toBe(`${PUBLIC_BASE_URL}/docs/errors#${code}`);
        const section = new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`).exec(
          page.text,
        )?.[1];
        expect(section).toContain(asHtml(ERROR_CODES[code].description));
        expect(section).toContain(asHtml(ERROR_CODES[code].remedy));
      }
    });

    it('has a section for every code of the catalogue, and the page is counted like the documentation', async () => {
      const page = await request(t.url).get('/v1/docs/errors');
      const sections = [...page.text.matchAll(/<section id="([a-z_]+)">/g)].map(([, id]) => id);
      expect(sections).toEqual(Object.keys(ERROR_CODES));
      expect(page.headers['x-ratelimit-limit']).toBeDefined();
      expect(page.headers['ratelimit']).toBeDefined();
    });
  });

  describe('details', () => {
    it('names a missing field once, "is required", without range or type noise, and the closest known name of an unknown one', async () => {
      const response = await api.post('/v1/pets').send({ categoryID: 1 });
      expect(detailsOf(response)).toEqual([
        {
          field: 'categoryID',
          issue: 'unknown_field',
          message: expect.stringMatching(
            /^categoryID is not a field of this body: did you mean categoryId\? Its fields are name, categoryId, status/,
          ),
        },
        { field: 'name', issue: 'required', message: 'name is required.' },
        { field: 'categoryId', issue: 'required', message: 'categoryId is required.' },
      ]);
      expect(response.body.message).toBe(
        'categoryID is not a field of this body: did you mean categoryId? Its fields are name, categoryId, status, externalId, breed, age, birthDate, sex, size, coat, colors, description, attributes, environment, tags; ' +
          'name is required; categoryId is required.',
      );
      expect(response.body.message).not.toMatch(/integer|less than|greater than|string/);
      // The OpenAPI document shows this very answer as the example of validation_failed.
      const document = (await request(t.url).get('/v1/openapi.json')).body;
      const { $ref } =
        document.paths['/pets'].post.responses['400'].content['application/json'].examples
          .validation_failed;
      expect($ref).toBe('#/components/examples/validation_failed');
      const example = document.components.examples.validation_failed.value;
      expect({ ...example, requestId: response.body.requestId }).toEqual(response.body);
    });

    it('lists the allowed query parameters when one is unknown', async () => {
      const [page] = detailsOf(await api.get('/v1/pets?page=2'));
      expect(page).toEqual({
        field: 'page',
        issue: 'unknown_field',
        message: `page is not a query parameter of this operation. Its query parameters are ${listPetsParameters.join(', ')}.`,
      });
      expect(listPetsParameters).toEqual(expect.arrayContaining(['limit', 'after', 'status']));
      const [typo] = detailsOf(await api.get('/v1/pets?limt=2'));
      expect(typo.message).toMatch(
        /^limt is not a query parameter of this operation: did you mean limit\?/,
      );
    });

    it.each([
      ['a string for an integer', { name: 'Rex', categoryId: '5' }, 'categoryId', 'type'],
      ['null for an integer', { name: 'Rex', categoryId: null }, 'categoryId', 'type'],
      ['1.0 for an integer', '{"name":"Rex","categoryId":1.0}', 'categoryId', 'type'],
      ['an integer below the range', { name: 'Rex', categoryId: 0 }, 'categoryId', 'range'],
      ['a name of 101 characters', { name: 'x'.repeat(101), categoryId: 1 }, 'name', 'range'],
      ['a name with a NUL', { name: 'Re\u0000x', categoryId: 1 }, 'name', 'format'],
      ['a number for a name', { name: 7, categoryId: 1 }, 'name', 'type'],
      [
        'a status out of the enum',
        { name: 'Rex', categoryId: 1, status: 'lost' },
        'status',
        'enum',
      ],
    ])('gives %s one entry, of its issue', async (_, body, field, issue) => {
      const response = await api
        .post('/v1/pets')
        .set('content-type', 'application/json')
        .send(typeof body === 'string' ? body : JSON.stringify(body));
      const details = detailsOf(response);
      expect(details).toEqual([
        { field, issue, message: expect.stringMatching(new RegExp(`^${field} `)) },
      ]);
    });

    it.each([
      ['limit=abc', 'limit', 'type'],
      ['limit=1&limit=2', 'limit', 'type'],
      ['limit=0', 'limit', 'range'],
      ['limit=101', 'limit', 'range'],
      ['limit=01', 'limit', 'format'],
      ['status=lost', 'status', 'enum'],
    ])('gives the query %s one entry, of its issue', async (query, field, issue) => {
      expect(detailsOf(await api.get(`/v1/pets?${query}`))).toEqual([
        { field, issue, message: expect.stringMatching(new RegExp(`^${field} `)) },
      ]);
    });

    it('says how to write an enum, a range and a path parameter right', async () => {
      const [status] = detailsOf(await api.get('/v1/pets?status=lost'));
      expect(status.message).toBe('status must be one of available, pending, sold');
      const [limit] = detailsOf(await api.get('/v1/pets?limit=0'));
      expect(limit.message).toBe('limit must be an integer from 1 to 100');
      const [petId] = detailsOf(await api.get('/v1/pets/abc'));
      expect(petId).toEqual({
        field: 'petId',
        issue: 'type',
        message: 'petId must be an integer from 1 to 9223372036854775807',
      });
    });

    it('names nested fields by their path, with the closest known name in their object', async () => {
      const response = await admin
        .post('/admin/api-keys')
        .send({ name: 'Big Co', plan: 'enterprise', limits: { perMinute: 'x', perDy: 3 } });
      expect(detailsOf(response)).toEqual([
        {
          field: 'limits.perDy',
          issue: 'unknown_field',
          message: expect.stringMatching(
            /^limits\.perDy is not a field of limits: did you mean perDay\? Its fields are perMinute, perDay, openOrders, webhookEndpoints\.$/,
          ),
        },
        {
          field: 'limits.perMinute',
          issue: 'type',
          message: 'limits.perMinute must be an integer number',
        },
        { field: 'limits.perDay', issue: 'required', message: 'limits.perDay is required.' },
      ]);
    });

    it('names the body, a prototype-named property and a header when they are what is wrong', async () => {
      expect(
        detailsOf(await api.post('/v1/pets').set('content-type', 'application/json').send('[1]')),
      ).toEqual([
        { field: 'body', issue: 'type', message: 'The request body must be a JSON object.' },
      ]);
      expect(
        detailsOf(
          await api
            .post('/v1/pets')
            .set('content-type', 'application/json')
            .send('{"name":"Rex","categoryId":1,"toString":1}'),
        ),
      ).toEqual([
        {
          field: 'toString',
          issue: 'unknown_field',
          message: expect.stringMatching(/^toString is not a field/),
        },
      ]);
      expect(
        detailsOf(
          await api
            .post('/v1/pets')
            .set('idempotency-key', 'no spaces allowed')
            .send({ name: 'Rex', categoryId: 1 }),
        ),
      ).toEqual([
        {
          field: 'Idempotency-Key',
          issue: 'format',
          message: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
        },
      ]);
    });

    it('gives the same details when a refused query is answered from the validation cache', async () => {
      const first = await api.get('/v1/pets?limit=0&page=1');
      const second = await api.get('/v1/pets?limit=0&page=1');
      expect(detailsOf(second)).toEqual(detailsOf(first));
      expect(second.body.requestId).not.toBe(first.body.requestId);
    });
  });
});
