import fc from 'fast-check';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

type Client = ReturnType<typeof apiClient>;

/** GET /v1/organizations/{id}/pets/export (CONTRACT.md "Shelter data in and out (v1.4)"). */
describe('exports', () => {
  let t: TestApp;
  let staff: Client;

  beforeAll(async () => {
    t = await startTestApp();
    staff = apiClient(t.url, t.auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const exported = async (format: string) => {
    const response = await staff
      .get('/v1/organizations/1/pets/export')
      .query({ format })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
    expect(response.status).toBe(200);
    return { text: response.body as string, type: response.headers['content-type'] as string };
  };
  const importFile = async (body: string, type = 'text/csv') => {
    const created = await staff
      .post('/v1/imports')
      .set('content-type', type)
      .send(body)
      .expect(202);
    for (;;) {
      const read = await staff.get(`/v1/imports/${created.body.id}`).expect(200);
      if (read.body.status === 'succeeded' || read.body.status === 'failed') return read.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const allPets = async () =>
    (await staff.get('/v1/pets').query({ organizationId: '1', limit: '100' }).expect(200)).body;

  it('writes csv in the import columns, ndjson one Pet a line, petfinder in its columns and codes', async () => {
    await staff.put('/v1/categories/1').send({ name: 'Dog' }).expect(201);
    const rex = (
      await staff
        .post('/v1/pets')
        .send({
          name: 'Rex, "the" dog',
          categoryId: 1,
          status: 'pending',
          externalId: 'A-1',
          sex: 'male',
          size: 'xlarge',
          age: 'young',
          attributes: { shotsCurrent: true, spayedNeutered: false },
          environment: { cats: false },
        })
        .expect(201)
    ).body;
    const csv = await exported('csv');
    expect(csv.type).toMatch(/^text\/csv/);
    const [header, row] = csv.text.split('\r\n');
    expect(header).toBe(
      'externalId,name,categoryId,status,breed,secondaryBreed,mixed,age,birthDate,sex,size,coat,colors,description,spayedNeutered,houseTrained,specialNeeds,shotsCurrent,goodWithChildren,goodWithDogs,goodWithCats,tags',
    );
    expect(row).toBe(
      'A-1,"Rex, ""the"" dog",1,pending,,,false,young,,male,xlarge,,,,false,,,true,,,false,',
    );
    const ndjson = await exported('ndjson');
    expect(ndjson.type).toMatch(/^application\/x-ndjson/);
    expect(
      ndjson.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([rex]);
    const petfinder = (await exported('petfinder')).text.split('\r\n');
    expect(petfinder[0]).toMatch(
      /^ID,Internal,AnimalName,PrimaryBreed,SecondaryBreed,Sex,Size,Age,Desc,Type,Status,Shots,Altered,NoDogs,NoCats,NoKids,Housetrained,Declawed,specialNeeds,Mix,photo1/,
    );
    expect(petfinder[1]).toBe(
      `${rex.id},A-1,"Rex, ""the"" dog",,,M,XL,Young,,Dog,H,1,,,1,,,,,,,,,,,`,
    );
  });

  it('answers 404 for an unknown organisation and 400 for an unknown format', async () => {
    expectError(await staff.get('/v1/organizations/999/pets/export?format=csv'), 404, 'not_found');
    expectError(
      await staff.get('/v1/organizations/1/pets/export?format=xlsx'),
      400,
      'validation_failed',
    );
    expectError(await staff.get('/v1/organizations/1/pets/export'), 400, 'validation_failed');
  });

  const text = (max: number) =>
    fc
      .string({ minLength: 1, maxLength: max, unit: 'grapheme' })
      // eslint-disable-next-line no-control-regex
      .filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s));
  const flag = fc.constantFrom(true, false, null);
  const pet = fc.record({
    name: text(100),
    categoryId: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom('available', 'pending', 'sold'),
    breed: fc.record({
      primary: fc.option(text(50)),
      secondary: fc.option(text(50)),
      mixed: fc.boolean(),
    }),
    age: fc.option(fc.constantFrom('baby', 'young', 'adult', 'senior')),
    sex: fc.option(fc.constantFrom('female', 'male', 'unknown')),
    size: fc.option(fc.constantFrom('small', 'medium', 'large', 'xlarge')),
    coat: fc.option(fc.constantFrom('short', 'long', 'wire')),
    colors: fc.uniqueArray(text(30), { maxLength: 3 }),
    description: fc.option(
      fc.string({ minLength: 1, maxLength: 200 }).filter(
        (s) =>
          s.trim() !== '' &&
          // eslint-disable-next-line no-control-regex
          !/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s),
      ),
    ),
    attributes: fc.record({
      spayedNeutered: flag,
      houseTrained: flag,
      specialNeeds: flag,
      shotsCurrent: flag,
    }),
    environment: fc.record({ children: flag, dogs: flag, cats: flag }),
    tags: fc.uniqueArray(text(30), { maxLength: 10 }),
  });

  it('round-trips: any valid pets, exported as csv and imported back, are unchanged (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pet, { minLength: 1, maxLength: 8 }), async (pets) => {
        await resetDatabase(t.dataSource);
        for (const [i, body] of pets.entries()) {
          const created = await staff.post('/v1/pets').send({ ...body, externalId: `P-${i}` });
          // A value the pet rules refuse is no valid pet: the property is about valid ones.
          if (created.status !== 201) return;
        }
        const before = await allPets();
        const { text: csv } = await exported('csv');
        const done = await importFile(csv);
        expect(done.rows).toMatchObject({ total: pets.length, unchanged: pets.length, failed: 0 });
        expect(await allPets()).toEqual(before);
      }),
      { numRuns: 8 },
    );
  });
});
