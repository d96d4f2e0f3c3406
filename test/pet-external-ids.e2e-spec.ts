import { apiClient, expectError } from './support/http';
import { otherShelter } from './support/shelters';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const ADMIN_TOKEN = 'external-ids-admin-token-0123456789';

/** `externalId` (CONTRACT.md "Shelter data in and out (v1.4)"): the id of a shelter's other system. */
describe('externalId on pets', () => {
  let t: TestApp;
  let staff: ReturnType<typeof apiClient>;
  let other: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    staff = apiClient(t.url, t.auth);
    other = (await otherShelter(t, ADMIN_TOKEN, { name: 'Dale Rescue', city: 'Leeds' })).staff;
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const create = (client: typeof staff, fields: Record<string, unknown>) =>
    client.post('/v1/pets').send({ name: 'Rex', categoryId: 1, ...fields });

  it('is null unless given, is written by createPet and updatePet, and moves the version', async () => {
    const plain = (await create(staff, {}).expect(201)).body;
    expect(plain.externalId).toBeNull();
    const given = (await create(staff, { externalId: 'A-1043' }).expect(201)).body;
    expect(given.externalId).toBe('A-1043');
    const changed = await staff.patch(`/v1/pets/${plain.id}`).send({ externalId: 'A-7' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ externalId: 'A-7', version: 2 });
    const cleared = await staff.patch(`/v1/pets/${plain.id}`).send({ externalId: null });
    expect(cleared.body).toMatchObject({ externalId: null, version: 3 });
    const same = await staff.patch(`/v1/pets/${given.id}`).send({ externalId: 'A-1043' });
    expect(same.body.version).toBe(1);
  });

  it('is unique in the organisation (409 already_exists), not across organisations, and freed by deletion', async () => {
    const first = (await create(staff, { externalId: 'A-1' }).expect(201)).body;
    expectError(await create(staff, { externalId: 'A-1' }), 409, 'already_exists');
    await create(other, { externalId: 'A-1' }).expect(201);
    const second = (await create(staff, { externalId: 'A-2' }).expect(201)).body;
    const taken = await staff.patch(`/v1/pets/${second.id}`).send({ externalId: 'A-1' });
    expectError(taken, 409, 'already_exists');
    expect(taken.body.message).toContain('A-1');
    await staff.delete(`/v1/pets/${first.id}`).expect(204);
    await staff.patch(`/v1/pets/${second.id}`).send({ externalId: 'A-1' }).expect(200);
  });

  it('follows the text rule: 1 to 64 characters, a string or null', async () => {
    for (const externalId of ['', ' ', 'x'.repeat(65), 42, true, ['A-1'], 'A\u0000']) {
      expectError(await create(staff, { externalId }), 400, 'validation_failed');
    }
    await create(staff, { externalId: 'é'.repeat(64) }).expect(201);
    await create(staff, { externalId: null }).expect(201);
  });

  it('finds a pet by GET /v1/pets?externalId=, with any other filter, carried in Link', async () => {
    const mine = (await create(staff, { externalId: 'K-9' }).expect(201)).body;
    const theirs = (await create(other, { externalId: 'K-9' }).expect(201)).body;
    await create(staff, { externalId: 'K-10' }).expect(201);
    const found = await staff.get('/v1/pets').query({ externalId: 'K-9' }).expect(200);
    expect(found.body.map((p: { id: number }) => p.id)).toEqual([mine.id, theirs.id]);
    const one = await staff
      .get('/v1/pets')
      .query({ externalId: 'K-9', organizationId: String(theirs.organizationId) })
      .expect(200);
    expect(one.body.map((p: { id: number }) => p.id)).toEqual([theirs.id]);
    const paged = await staff.get('/v1/pets').query({ externalId: 'K-9', limit: '1' }).expect(200);
    expect(paged.headers.link).toContain('externalId=K-9');
    expect((await staff.get('/v1/pets').query({ externalId: 'k-9' })).body).toEqual([]);
    expectError(await staff.get('/v1/pets').query({ externalId: '' }), 400, 'validation_failed');
    expectError(await staff.get('/v1/pets?externalId=a&externalId=b'), 400, 'validation_failed');
  });
});
