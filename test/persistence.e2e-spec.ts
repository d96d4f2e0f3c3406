import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

describe('persistence', () => {
  it('keeps pets across an application restart', async () => {
    const first = await startTestApp();
    await resetDatabase(first.dataSource);
    const created = await apiClient(first.url, first.auth)
      .post('/v1/pets')
      .send({ name: 'Rex', categoryId: 2 });
    expect(created.status).toBe(201);
    await first.close();

    const second = await startTestApp();
    try {
      const response = await apiClient(second.url, second.auth).get('/v1/pets');
      expect(response.body).toEqual([created.body]);
    } finally {
      await second.close();
    }
  });

  it('prepares the hot statements per connection, unless DATABASE_PREPARED_STATEMENTS=false', async () => {
    // One connection per app, so that the session asked is the one that served the requests.
    const start = (prepared: string) =>
      startTestApp({ DATABASE_PREPARED_STATEMENTS: prepared, DATABASE_POOL_SIZE: '1' });
    const preparedNames = async (app: TestApp) =>
      (
        (await app.dataSource.query(
          `SELECT name FROM pg_prepared_statements WHERE name LIKE 'pets\\_%' ORDER BY name`,
        )) as { name: string }[]
      ).map((row) => row.name);

    const unnamed = await start('false');
    let first: Pet, second: Pet;
    try {
      await resetDatabase(unnamed.dataSource);
      const api = apiClient(unnamed.url, unnamed.auth);
      first = (await api.post('/v1/pets').send({ name: 'Rex', categoryId: 2 }).expect(201)).body;
      second = (
        await api.post('/v1/pets').send({ name: 'Tom', categoryId: 3, status: 'sold' }).expect(201)
      ).body;
      expect((await api.get('/v1/pets?status=sold')).body).toEqual([second]);
      expect(await preparedNames(unnamed)).toEqual([]);
    } finally {
      await unnamed.close();
    }

    const prepared = await start('true');
    try {
      const api = apiClient(prepared.url, prepared.auth);
      const third = (await api.post('/v1/pets').send({ name: 'Kit', categoryId: 4 }).expect(201))
        .body;
      expect((await api.get('/v1/pets')).body).toEqual([first, second, third]);
      expect((await api.get('/v1/pets?status=sold')).body).toEqual([second]);
      expect((await api.get(`/v1/pets/${first.id}`)).body).toEqual(first);
      expect(await preparedNames(prepared)).toEqual([
        'pets_find_by_id',
        'pets_insert',
        'pets_page',
        'pets_page_by_status',
      ]);
    } finally {
      await prepared.close();
    }
  });
});
