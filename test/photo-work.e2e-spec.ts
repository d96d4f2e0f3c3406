import { otherShelter } from './support/shelters';
import { mkdtemp, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { ImageProcessor } from '../src/photos/application/image-processor';
import { SharpImageProcessor } from '../src/photos/infrastructure/sharp-image-processor';
import { samplePhotoJpeg } from '../src/photos/infrastructure/sample-photo';
import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { plain } from './support/test-images';

const ADMIN_TOKEN = 'photo-work-suite-admin-token-0123456789abcdef';

// Twelve-megapixel images decoded in a worker at the lowest priority, on a shared machine.
jest.setTimeout(120_000);

type Client = ReturnType<typeof apiClient>;

/** Resolves once `done()` holds, looking every 10 ms: a state reached, not a time waited. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Photos go to a directory of the test's own, removed when the app closes. */
async function startApp(concurrency: string): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'photo-work-e2e-'));
  // The defaults spelled out, as the tests count places: eight waiting, at most four of them one
  // organisation's, one worker.
  const t = await startTestApp({
    ADMIN_TOKEN,
    PHOTO_DIR: dir,
    PHOTO_CONCURRENCY: concurrency,
    PHOTO_QUEUE_LENGTH: '8',
    PHOTO_QUEUE_PER_ORGANIZATION: '4',
    PHOTO_WORKERS: '1',
  });
  return {
    ...t,
    close: async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const upload = (client: Client, petId: number, image: Buffer) =>
  client.post(`/v1/pets/${petId}/photos`).set('content-type', 'image/jpeg').send(image);
const newPet = async (client: Client) =>
  (await client.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201)).body as {
    id: number;
  };

/**
 * "Photo work is fair and apart" (CONTRACT.md, "Trust, round 4 (v1.4)"; docs/adr/0063): one
 * organisation's uploads hold another's for at most one image and never answer it 503. With one
 * image at a time and with the default two.
 */
describe.each([1, 2])(
  'photo work with %i image(s) at once: fair between organisations',
  (concurrency) => {
    let t: TestApp;
    let houseStaff: Client;
    let otherStaff: Client;
    let processor: SharpImageProcessor;

    const photosOf = async (petId: number) =>
      ((await houseStaff.get(`/v1/pets/${petId}`).expect(200)).body as { photos: unknown[] })
        .photos;

    beforeAll(async () => {
      t = await startApp(String(concurrency));
      processor = t.app.get(ImageProcessor) as SharpImageProcessor;
      houseStaff = apiClient(t.url, t.auth);
      otherStaff = (await otherShelter(t, ADMIN_TOKEN, { name: 'Fell Rescue', city: 'Kendal' }))
        .staff;
    });
    afterAll(() => t.close());

    it("answers another organisation's small upload after at most one of a busy organisation's large images under way, and never 503 while that one's queue is full", async () => {
      const large = await samplePhotoJpeg(); // 4000 × 3000, 12 megapixels
      const small = await plain(400, 300).jpeg().toBuffer();
      const housePet = await newPet(houseStaff);
      const otherPet = await newPet(otherStaff);
      /** Each answer as it comes, in the order they come. */
      const answered: { who: string; status: number }[] = [];
      const note = (who: string) => (response: Response) => {
        answered.push({ who, status: response.status });
        return response;
      };

      // At once from the house: `concurrency` processed, four waiting, two refused (its queue is
      // full).
      const house = Array.from({ length: concurrency + 6 }, () =>
        upload(houseStaff, housePet.id, large).then(note('house')),
      );
      await until(
        () =>
          processor.load.running === concurrency &&
          processor.load.waiting === 4 &&
          answered.filter(({ status }) => status === 503).length === 2,
      );
      const refused = answered.length;
      expect(answered).toEqual([
        { who: 'house', status: 503 },
        { who: 'house', status: 503 },
      ]);

      // The house's queue is full; the other organisation still has its places.
      const other = await upload(otherStaff, otherPet.id, small).then(note('other'));
      expect(other.status).toBe(201);
      const houseAnswers = await Promise.all(house);
      const refusals = houseAnswers.filter(({ status }) => status === 503);
      expect(refusals).toHaveLength(2);
      for (const refusal of refusals) {
        expectError(refusal, 503, 'service_unavailable');
        expect(refusal.headers['retry-after']).toBe('1');
      }
      expect(houseAnswers.filter(({ status }) => status === 201)).toHaveLength(concurrency + 4);

      // Order, not time: the other organisation's image was taken as soon as one of the house's
      // under way ended, ahead of the four of the house's that had waited longer. So the house's
      // photos answered before it are at most those that were under way when it came: one with one
      // image at a time (a queue served first come, or in a turn the house had just taken, lets two
      // or more through), two with two (the other one may end while the small image is stored).
      const after = answered.slice(refused);
      const otherAt = after.findIndex(({ who }) => who === 'other');
      expect(
        after.slice(0, otherAt).filter(({ who }) => who === 'house').length,
      ).toBeLessThanOrEqual(concurrency);
      expect(await photosOf(otherPet.id)).toHaveLength(1);
      expect(await photosOf(housePet.id)).toHaveLength(concurrency + 4);
    });
  },
);

/**
 * Images are processed in worker processes at a lower CPU priority than requests, and a worker
 * that dies is replaced. The real workers: forked by the service under test, from its sources.
 */
describe('photo work: apart from the service', () => {
  let t: TestApp;
  let houseStaff: Client;
  let processor: SharpImageProcessor;

  const photosOf = async (petId: number) =>
    ((await houseStaff.get(`/v1/pets/${petId}`).expect(200)).body as { photos: unknown[] }).photos;

  beforeAll(async () => {
    t = await startApp('2');
    processor = t.app.get(ImageProcessor) as SharpImageProcessor;
    houseStaff = apiClient(t.url, t.auth);
  });
  afterAll(() => t.close());

  it('processes images in another process, at a lower CPU priority than the service', async () => {
    const pet = await newPet(houseStaff);
    await upload(houseStaff, pet.id, await plain(400, 300).jpeg().toBuffer()).expect(201);
    const pids = processor.workers.pids;
    expect(pids).toHaveLength(1);
    expect(pids[0]).not.toBe(process.pid);
    // Unix niceness: higher is lower priority. The worker is at the lowest, 19.
    expect(getPriority(pids[0])).toBeGreaterThan(getPriority(process.pid));
    expect(getPriority(pids[0])).toBe(19);
  });

  it('answers 503 with Retry-After and records nothing when the worker dies on an image, then replaces it for the next upload', async () => {
    const pet = await newPet(houseStaff);
    // The worker is started by an upload before; this one is killed while decoding 12 megapixels.
    await upload(houseStaff, pet.id, await plain(400, 300).jpeg().toBuffer()).expect(201);
    const [worker] = processor.workers.pids;
    const killed = upload(houseStaff, pet.id, await samplePhotoJpeg()).then((response) => response);
    await until(() => processor.load.running === 1);
    process.kill(worker, 'SIGKILL');
    const response = await killed;
    expectError(response, 503, 'service_unavailable');
    expect(response.headers['retry-after']).toBe('1');
    // No half-written photo: the pet has only the first.
    expect(await photosOf(pet.id)).toHaveLength(1);

    const next = await upload(houseStaff, pet.id, await plain(300, 200).jpeg().toBuffer());
    expect(next.status).toBe(201);
    expect(await photosOf(pet.id)).toHaveLength(2);
    const [replacement] = processor.workers.pids;
    expect(replacement).not.toBe(worker);
    expect(getPriority(replacement)).toBe(19);
  });
});
