import { UNKNOWN_PROFILE } from '../src/pets/application/ports/pet-types';
import { apiClient, expectError, Response } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * An animal's profile (CONTRACT.md "Animals worth adopting (v1.3)"; docs/api.md, "Profiles"): every
 * member optional on input and present in every answer; createPet and updatePet write it, the
 * change a merge patch whose objects merge member by member; every rule a 400 naming the member.
 */
describe('pet profiles', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  const PROFILE = {
    breed: { primary: 'Labrador Retriever', secondary: null, mixed: true },
    age: 'young',
    birthDate: '2024-03-01',
    sex: 'female',
    size: 'large',
    coat: 'short',
    colors: ['Black', 'White'],
    description: 'Calm indoors.\nLoves long walks.',
    attributes: {
      spayedNeutered: true,
      houseTrained: true,
      specialNeeds: false,
      shotsCurrent: null,
    },
    environment: { children: true, dogs: true, cats: null },
    tags: ['calm', 'leash-trained'],
  };

  beforeAll(async () => {
    t = await startTestApp();
    api = apiClient(t.url, t.auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const create = async (body: object) => {
    const response = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1, ...body });
    expect(response.status).toBe(201);
    return response.body;
  };
  const read = async (id: number) => (await api.get(`/v1/pets/${id}`).expect(200)).body;
  const recorded = async (type: string) =>
    (await t.dataSource.query('SELECT data FROM events WHERE type = $1 ORDER BY id', [type])).map(
      (row: { data: unknown }) => row.data,
    );
  const detailsOf = (response: Response) =>
    (response.body.details as { field: string; issue: string }[]).map(({ field, issue }) => ({
      field,
      issue,
    }));

  it('creates a v1 body as before, every profile member present and unknown, no photo, in the answers order', async () => {
    const pet = await create({});
    expect(pet).toMatchObject({ ...UNKNOWN_PROFILE, photos: [] });
    expect(Object.keys(pet)).toEqual([
      'id',
      'name',
      'categoryId',
      'status',
      'organizationId',
      'externalId',
      ...Object.keys(UNKNOWN_PROFILE),
      'photos',
      'version',
      'createdAt',
      'updatedAt',
    ]);
    expect(await read(pet.id)).toEqual(pet);
  });

  it('creates with a whole profile: answered, read, listed and recorded as sent', async () => {
    const pet = await create(PROFILE);
    expect(pet).toMatchObject(PROFILE);
    expect(await read(pet.id)).toEqual(pet);
    expect((await api.get('/v1/pets').expect(200)).body).toEqual([pet]);
    expect(await recorded('pet.created')).toEqual([pet]);
  });

  it('merges a change: objects member by member, lists replaced, null making a member unknown', async () => {
    const pet = await create(PROFILE);
    const response = await api.patch(`/v1/pets/${pet.id}`).send({
      breed: { secondary: 'Collie' },
      attributes: { shotsCurrent: true, specialNeeds: null },
      environment: null,
      colors: ['Chocolate'],
      tags: null,
      age: null,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...pet,
      breed: { primary: 'Labrador Retriever', secondary: 'Collie', mixed: true },
      attributes: {
        spayedNeutered: true,
        houseTrained: true,
        specialNeeds: null,
        shotsCurrent: true,
      },
      environment: UNKNOWN_PROFILE.environment,
      colors: ['Chocolate'],
      tags: [],
      age: null,
      version: 2,
      updatedAt: response.body.updatedAt,
    });
    expect(response.headers.etag).toBe('"2"');
    expect(await read(pet.id)).toEqual(response.body);
    expect(await recorded('pet.updated')).toEqual([response.body]);
  });

  it("counts no change for a patch of the profile's own values: same version, no event", async () => {
    const pet = await create(PROFILE);
    const response = await api
      .patch(`/v1/pets/${pet.id}`)
      .send({ breed: { mixed: true }, colors: ['Black', 'White'], age: 'young' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(pet);
    expect(await recorded('pet.updated')).toEqual([]);
  });

  it('carries the profile in the events an order records for its pet, as the pet is answered', async () => {
    const pet = await create(PROFILE);
    const adopter = apiClient(t.url, (await t.issueKey({ scopes: ['orders:write'] })).auth);
    expect((await adopter.post('/v1/store/orders').send({ petId: pet.id })).status).toBe(201);
    const [held] = await recorded('pet.updated');
    const answered = await read(pet.id);
    expect(held).toEqual(answered);
    expect(Object.keys(held)).toEqual(Object.keys(answered));
    expect(Object.keys(held.breed)).toEqual(Object.keys(answered.breed));
  });

  it('replays a retried create with its profile, and refuses the key with another profile', async () => {
    const send = (body: object) =>
      api
        .post('/v1/pets')
        .set('Idempotency-Key', 'profile-1')
        .send({ name: 'Rex', categoryId: 1, ...body });
    const first = await send(PROFILE);
    const retry = await send(PROFILE);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 201, body: first.body });
    expectError(await send({ ...PROFILE, age: 'adult' }), 422, 'idempotency_key_reused');
  });

  const REFUSED: [body: object, details: { field: string; issue: string }[]][] = [
    [{ age: 'puppy' }, [{ field: 'age', issue: 'enum' }]],
    [
      { sex: 'F', size: 'huge' },
      [
        { field: 'sex', issue: 'enum' },
        { field: 'size', issue: 'enum' },
      ],
    ],
    [{ coat: 3 }, [{ field: 'coat', issue: 'enum' }]],
    [{ birthDate: '2024-02-30' }, [{ field: 'birthDate', issue: 'format' }]],
    [{ birthDate: '2999-01-01' }, [{ field: 'birthDate', issue: 'format' }]],
    [{ breed: { primary: 'b'.repeat(51) } }, [{ field: 'breed.primary', issue: 'range' }]],
    [{ breed: { mixed: null } }, [{ field: 'breed.mixed', issue: 'type' }]],
    [{ breed: 'Labrador' }, [{ field: 'breed', issue: 'type' }]],
    [{ colors: ['a', 'b', 'c', 'd'] }, [{ field: 'colors', issue: 'range' }]],
    [{ tags: ['Calm', 'calm'] }, [{ field: 'tags', issue: 'format' }]],
    [{ description: `${'x'.repeat(10_000)}!` }, [{ field: 'description', issue: 'range' }]],
    [
      { attributes: { houseTrained: 'yes' } },
      [{ field: 'attributes.houseTrained', issue: 'type' }],
    ],
    [{ environment: { birds: true } }, [{ field: 'environment.birds', issue: 'unknown_field' }]],
  ];

  it.each(REFUSED.map(([body, details]) => [JSON.stringify(body).slice(0, 60), body, details]))(
    'refuses %s on a create and on a change with 400 naming the member, storing nothing',
    async (_, body, details) => {
      const refusedCreate = expectError(
        await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1, ...body }),
        400,
        'validation_failed',
      );
      expect(detailsOf(refusedCreate)).toEqual(details);
      const pet = await create({});
      const refusedChange = expectError(
        await api.patch(`/v1/pets/${pet.id}`).send(body),
        400,
        'validation_failed',
      );
      expect(detailsOf(refusedChange)).toEqual(details);
      expect(await read(pet.id)).toEqual(pet);
      expect(await recorded('pet.created')).toHaveLength(1);
    },
  );

  it('takes a description of 10,000 characters, lines and tabs included, counted in code points', async () => {
    const description = `${'x'.repeat(9_997)}\r\n\t`;
    expect((await create({ description })).description).toBe(description);
    // Counted in code points, not UTF-16 units: 3,000 emoji are 6,000 units, 12 KB of UTF-8.
    const paws = '🐾'.repeat(3_000);
    expect((await create({ description: paws })).description).toBe(paws);
  });

  it('keeps the 16 KiB limit of every body: 10,000 emoji (40 KB) are a 413, not a 400', async () => {
    const response = await api
      .post('/v1/pets')
      .send({ name: 'Rex', categoryId: 1, description: '🐾'.repeat(10_000) });
    expectError(response, 413, 'payload_too_large');
  });
});
