import { apiClient, expectError, request } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * `Idempotency-Key` on every POST that creates something (docs/api.md, "Requests and responses"):
 * a retry with the same key and body answers what the first request created, and creates nothing
 * more; the same key with another body is a 422. Keys' secrets are answered again to a retry but
 * never recorded readably (docs/adr/0016).
 */
jest.setTimeout(60_000);

describe('Idempotency-Key on every creating POST', () => {
  const ADMIN_TOKEN = 'idempotent-creations-suite-admin-token-0123456789';
  let t: TestApp;
  let staff: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;
  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) FROM ${table}`))[0].count);

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    staff = apiClient(
      t.url,
      (
        await t.issueKey({
          organizationId: '1',
          scopes: ['pets:read', 'pets:write', 'organization:manage'],
        })
      ).auth,
    );
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  it('is declared by every operation that answers 201 in both documents', async () => {
    const missing: string[] = [];
    for (const path of ['/v1/openapi.json', '/admin/openapi.json']) {
      const document = (await request(t.url).get(path).expect(200)).body;
      type Operation = {
        operationId: string;
        responses?: Record<string, unknown>;
        parameters?: { in: string; name: string }[];
      };
      for (const operations of Object.values(document.paths) as Record<string, Operation>[]) {
        for (const [method, operation] of Object.entries(operations)) {
          if (method !== 'post' || !operation.responses?.['201']) continue;
          const takesKey = (operation.parameters ?? []).some(
            (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
          );
          if (!takesKey) missing.push(operation.operationId);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  describe.each([
    ['issueOrganizationKey', () => staff, '/v1/keys', { name: 'Desk', scopes: ['pets:read'] }],
    ['issueApiKey', () => admin, '/admin/api-keys', { name: 'Desk', plan: 'free' }],
  ])('%s', (_, client, path, body) => {
    it('issues one key for retries under one key, answering the same secret, recorded sealed', async () => {
      const before = await count('api_keys');
      const first = await client().post(path).set('idempotency-key', 'desk-1').send(body);
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const retries = await Promise.all(
        [1, 2, 3].map(() => client().post(path).set('idempotency-key', 'desk-1').send(body)),
      );
      for (const retry of retries) {
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.body).toEqual(first.body);
      }
      expect(await count('api_keys')).toBe(before + 1);
      // The secret answered again is the key's: it works.
      await request(t.url)
        .get('/v1/keys/self')
        .set('authorization', `Bearer ${first.body.key}`)
        .expect(200);
      const records = await t.dataSource.query('SELECT key, response::text FROM idempotency_keys');
      expect(records).toHaveLength(1);
      expect(records[0].key).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(records[0].response).not.toContain(first.body.key);
      expect(records[0].response).not.toContain(first.body.key.slice(-20));
      expectError(
        await client()
          .post(path)
          .set('idempotency-key', 'desk-1')
          .send({ ...body, name: 'Other' }),
        422,
        'idempotency_key_reused',
      );
      // Another key is another creation.
      const other = await client().post(path).set('idempotency-key', 'desk-2').send(body);
      expect(other.status).toBe(201);
      expect(other.body.id).not.toBe(first.body.id);
    });

    it('issues one key when the first requests under a key arrive together', async () => {
      const before = await count('api_keys');
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => client().post(path).set('idempotency-key', 'desk-3').send(body)),
      );
      for (const answer of answers) expect(answer.status).toBe(201);
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
      expect(new Set(answers.map((a) => a.body.key)).size).toBe(1);
      expect(await count('api_keys')).toBe(before + 1);
    });
  });

  it('gives the claim of a key issuance that failed back: a retry is refused as the first was, a corrected request creates', async () => {
    const body = { name: 'Desk', plan: 'free', organizationId: 987654 };
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await admin.post('/admin/api-keys').set('idempotency-key', 'k').send(body);
      expectError(answer, 400, 'validation_failed');
      expect(answer.body.message).toContain('organizationId 987654 names no organization');
    }
    expect(await count('idempotency_keys')).toBe(0);
    // Nothing was created under the key: a corrected request under it creates, not a 422.
    await admin
      .post('/admin/api-keys')
      .set('idempotency-key', 'k')
      .send({ ...body, organizationId: 1 })
      .expect(201);
  });

  it('createOrganization: one organisation for retries, 422 for another body under the key', async () => {
    const body = {
      name: `Harbour Rescue ${Date.now()}`,
      email: 'adopt@harbour.example',
      address: { city: 'Bristol', country: 'GB' },
    };
    const before = await count('organizations');
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        admin.post('/admin/organizations').set('idempotency-key', 'onboard-1').send(body),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(
      answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true'),
    ).toHaveLength(2);
    expect(await count('organizations')).toBe(before + 1);
    expectError(
      await admin
        .post('/admin/organizations')
        .set('idempotency-key', 'onboard-1')
        .send({ ...body, email: 'other@harbour.example' }),
      422,
      'idempotency_key_reused',
    );
  });

  it("rollKey: a retried roll answers the first roll's secret, and rolls once", async () => {
    const issued = await staff
      .post('/v1/keys')
      .send({ name: 'Desk', scopes: ['pets:read'] })
      .expect(201);
    const roll = () =>
      staff
        .post(`/v1/keys/${issued.body.id}/roll`)
        .set('idempotency-key', 'roll-1')
        .send({ overlapSeconds: 60 });
    const first = await roll();
    const retry = await roll();
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.key).toBe(first.body.key);
    // One roll: the secret it replaced is the one issued, still in its overlap, and the new one works.
    for (const secret of [issued.body.key, first.body.key]) {
      await request(t.url)
        .get('/v1/keys/self')
        .set('authorization', `Bearer ${secret}`)
        .expect(200);
    }
    const [record] = await t.dataSource.query(
      `SELECT response::text FROM idempotency_keys WHERE key LIKE 'sha256:%'`,
    );
    expect(record.response).not.toContain(first.body.key);
  });

  it('keeps the keys of different clients apart: the admin and a staff key may use the same one', async () => {
    await admin
      .post('/admin/api-keys')
      .set('idempotency-key', 'same')
      .send({ name: 'A', plan: 'free' })
      .expect(201);
    const staffs = await staff
      .post('/v1/keys')
      .set('idempotency-key', 'same')
      .send({ name: 'B', scopes: ['pets:read'] });
    expect(staffs.status).toBe(201);
    expect(staffs.headers['idempotent-replayed']).toBeUndefined();
  });
});
