import { apiClient } from './support/http';
import { resetDatabase, startTestApp } from './support/test-app';

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
});
