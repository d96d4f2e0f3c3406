import { PhotoRepository } from '../src/photos/application/photo.repository';
import { NewPhoto } from '../src/photos/domain/photo';
import { SqlPhotoRepository } from '../src/photos/infrastructure/sql-photo.repository';
import { SqlStatements } from '../src/platform/database/sql-statements';
import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const key = (n: number, ext = 'jpg') => `${n.toString(16).padStart(64, '0')}.${ext}`;
const photoOf = (petId: number, n: number): NewPhoto => ({
  petId,
  width: 1200,
  height: 800,
  variants: {
    small: key(n * 10 + 1),
    medium: key(n * 10 + 2),
    large: key(n * 10 + 3),
    full: key(n * 10 + 4),
  },
});

/** SqlPhotoRepository on the real PostgreSQL: positions 1..n, and the use case's transaction. */
describe('the photos table', () => {
  let t: TestApp;
  let photos: PhotoRepository;
  let sql: SqlStatements;
  let pets: number[];

  beforeAll(async () => {
    t = await startTestApp();
    sql = t.app.get(SqlStatements);
    photos = new SqlPhotoRepository(sql);
  });
  beforeEach(async () => {
    await resetDatabase(t.dataSource);
    const api = apiClient(t.url, t.auth);
    pets = [];
    for (const name of ['Rex', 'Bella']) {
      pets.push((await api.post('/v1/pets').send({ name, categoryId: 1 }).expect(201)).body.id);
    }
  });
  afterAll(() => t.close());

  const positions = async (petId = pets[0]) =>
    (await photos.listOf(petId)).map(({ id, position }) => [id, position]);

  it('adds each photo after the pet’s others, and reads them back by position', async () => {
    const first = await photos.add(photoOf(pets[0], 1));
    expect(first).toEqual({
      id: expect.any(Number),
      petId: pets[0],
      position: 1,
      width: 1200,
      height: 800,
      variants: photoOf(pets[0], 1).variants,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const second = await photos.add(photoOf(pets[0], 2));
    const other = await photos.add(photoOf(pets[1], 3));
    expect([second.position, other.position]).toEqual([2, 1]);
    expect(await photos.countOf(pets[0])).toBe(2);
    expect(await photos.find(pets[0], second.id)).toEqual(second);
    expect(await photos.find(pets[1], second.id)).toBeNull();
    expect(await positions()).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
  });

  it('moves a photo forward and back, the ones between shifting by one', async () => {
    const ids: number[] = [];
    for (let n = 1; n <= 4; n++) ids.push((await photos.add(photoOf(pets[0], n))).id);
    expect(await photos.move(pets[0], ids[2], 1)).toMatchObject({ id: ids[2], position: 1 });
    expect(await positions()).toEqual([
      [ids[2], 1],
      [ids[0], 2],
      [ids[1], 3],
      [ids[3], 4],
    ]);
    expect(await photos.move(pets[0], ids[2], 4)).toMatchObject({ id: ids[2], position: 4 });
    expect(await positions()).toEqual([
      [ids[0], 1],
      [ids[1], 2],
      [ids[3], 3],
      [ids[2], 4],
    ]);
  });

  it('moves nothing beyond the pet’s photos, nor a photo of another pet', async () => {
    const mine = await photos.add(photoOf(pets[0], 1));
    await photos.add(photoOf(pets[0], 2));
    const theirs = await photos.add(photoOf(pets[1], 3));
    expect(await photos.move(pets[0], mine.id, 3)).toBeNull();
    expect(await photos.move(pets[0], theirs.id, 1)).toBeNull();
    expect(await positions()).toEqual([
      [mine.id, 1],
      [mine.id + 1, 2],
    ]);
  });

  it('removes a photo, the ones after it moving up; none for a photo it has not', async () => {
    const ids: number[] = [];
    for (let n = 1; n <= 3; n++) ids.push((await photos.add(photoOf(pets[0], n))).id);
    expect(await photos.remove(pets[0], ids[0])).toMatchObject({ id: ids[0], position: 1 });
    expect(await positions()).toEqual([
      [ids[1], 1],
      [ids[2], 2],
    ]);
    expect(await photos.remove(pets[1], ids[1])).toBeNull();
    expect(await photos.remove(pets[0], ids[0])).toBeNull();
    expect(await photos.add(photoOf(pets[0], 4))).toMatchObject({ position: 3 });
  });

  it('tells which keys a photo still names, through its index', async () => {
    await photos.add(photoOf(pets[0], 1));
    await photos.add(photoOf(pets[1], 2));
    expect((await photos.referenced([key(11), key(24), key(99), key(11, 'webp')])).sort()).toEqual(
      [key(11), key(24)].sort(),
    );
    expect(await photos.referenced([])).toEqual([]);
    const plan = await t.dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      return manager.query(
        `EXPLAIN SELECT 1 FROM photos
          WHERE ARRAY[small_key, medium_key, large_key, full_key] && $1::varchar[]`,
        [[key(11)]],
      );
    });
    expect(JSON.stringify(plan)).toContain('photos_by_key_idx');
  });

  it('joins the transaction under way: a rolled-back one leaves no photo', async () => {
    await expect(
      sql.transaction(async () => {
        await photos.add(photoOf(pets[0], 1));
        expect(await photos.countOf(pets[0])).toBe(1);
        throw new Error('changed our mind');
      }),
    ).rejects.toThrow('changed our mind');
    expect(await photos.countOf(pets[0])).toBe(0);
  });

  it('keeps one photo a position, checked as a transaction commits', async () => {
    await photos.add(photoOf(pets[0], 1));
    await expect(
      t.dataSource.query(
        `INSERT INTO photos (pet_id, position, width, height, small_key, medium_key, large_key, full_key)
         VALUES ($1, 1, 1, 1, 'a', 'b', 'c', 'd')`,
        [pets[0]],
      ),
    ).rejects.toMatchObject({ constraint: 'photos_one_per_position' });
    await expect(
      t.dataSource.query(
        `INSERT INTO photos (pet_id, position, width, height, small_key, medium_key, large_key, full_key)
         VALUES ($1, 13, 1, 1, 'a', 'b', 'c', 'd')`,
        [pets[0]],
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
