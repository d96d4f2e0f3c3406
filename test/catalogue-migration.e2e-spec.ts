import { DataSource } from 'typeorm';
import { migrations } from '../src/migrations';
import { PetVersionsAndDeletion1795220300000 } from '../src/pets/infrastructure/migrations/1795220300000-pet-versions-and-deletion';
import { freshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { INSTANT } from './support/pets';
import { startTestApp } from './support/test-app';

// Starts a database of its own (a throw-away server on the embedded engine).
jest.setTimeout(60_000);

describe('a catalogue of v1 pets, upgraded', () => {
  it('gives every pet a version and instants, and a category for every categoryId', async () => {
    const database = await freshDatabase();
    try {
      // The schema as v1.1 left it, with pets, orders and counts in it.
      const before = await new DataSource({
        type: 'postgres',
        url: database.url,
        migrations: migrations.slice(0, migrations.indexOf(PetVersionsAndDeletion1795220300000)),
      }).initialize();
      await before.runMigrations();
      await before.query(
        `INSERT INTO pets (name, category_id, status)
         SELECT 'pet ' || i, 1 + i % 3 * 20, (ARRAY['available', 'pending', 'sold'])[1 + i % 3]
           FROM generate_series(1, 30) i`,
      );
      await before.destroy();

      const t = await startTestApp({ DATABASE_URL: database.url });
      try {
        const api = apiClient(t.url, t.auth);
        const pets = (await api.get('/v1/pets?limit=100')).body;
        expect(pets).toHaveLength(30);
        for (const pet of pets) {
          expect(pet).toMatchObject({ version: 1, createdAt: expect.stringMatching(INSTANT) });
          expect(pet.updatedAt).toBe(pet.createdAt);
        }
        expect((await api.get('/v1/categories')).body).toEqual([
          { id: 1, name: null },
          { id: 21, name: null },
          { id: 41, name: null },
        ]);
        expect((await api.get('/v1/store/inventory')).body).toEqual({
          available: 10,
          pending: 10,
          sold: 10,
        });
        // From now on they change as any pet does, and may be found by name.
        await api.patch('/v1/pets/3').set('if-match', '"1"').send({ name: 'Rex' }).expect(200);
        expect((await api.get('/v1/pets?name=rex')).body.map((p: { id: number }) => p.id)).toEqual([
          3,
        ]);
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});
