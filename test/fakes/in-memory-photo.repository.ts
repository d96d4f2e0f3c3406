import { Transactions } from '../../src/common/transactions';
import { PhotoRepository } from '../../src/photos/application/photo.repository';
import { NewPhoto, PetId, Photo, PhotoId } from '../../src/photos/domain/photo';
import { PhotoKey } from '../../src/photos/domain/photo-key';
import { InMemoryEvents } from './in-memory-events';

/** Photos in an array, for unit tests of the use cases, with the port's rules (positions 1..n). */
export class InMemoryPhotoRepository extends PhotoRepository {
  rows: Photo[] = [];
  now = '2026-11-24T09:00:00.000Z';
  private nextId = 1;

  /**
   * The transactions of the use cases: they join `events`' (what is recorded counts only once it
   * commits), and the photos changed in one are put back as they were when it throws.
   */
  transactionsWith(events: InMemoryEvents): Transactions {
    return {
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        const saved = this.rows.map((row) => ({ ...row }));
        try {
          return await events.transactions.run(work);
        } catch (error) {
          this.rows = saved;
          throw error;
        }
      },
      together: events.transactions.together,
    };
  }

  async countOf(petId: PetId): Promise<number> {
    return this.rows.filter((row) => row.petId === petId).length;
  }

  async listOf(petId: PetId): Promise<Photo[]> {
    return this.rows
      .filter((row) => row.petId === petId)
      .sort((a, b) => a.position - b.position)
      .map((row) => ({ ...row }));
  }

  async find(petId: PetId, photoId: PhotoId): Promise<Photo | null> {
    const row = this.rows.find((r) => r.petId === petId && r.id === photoId);
    return row ? { ...row } : null;
  }

  async add(photo: NewPhoto): Promise<Photo> {
    const row: Photo = {
      ...photo,
      id: this.nextId++,
      position: (await this.countOf(photo.petId)) + 1,
      createdAt: this.now,
    };
    this.rows.push(row);
    return { ...row };
  }

  async move(petId: PetId, photoId: PhotoId, position: number): Promise<Photo | null> {
    const photos = await this.listOf(petId);
    const moving = photos.find((photo) => photo.id === photoId);
    if (!moving) return null;
    const order = photos.filter((photo) => photo.id !== photoId);
    order.splice(position - 1, 0, moving);
    this.renumber(petId, order);
    return this.find(petId, photoId);
  }

  async remove(petId: PetId, photoId: PhotoId): Promise<Photo | null> {
    const removed = await this.find(petId, photoId);
    if (!removed) return null;
    this.rows = this.rows.filter((row) => row.id !== photoId);
    this.renumber(
      petId,
      (await this.listOf(petId)).filter((photo) => photo.id !== photoId),
    );
    return removed;
  }

  async referenced(keys: readonly PhotoKey[]): Promise<PhotoKey[]> {
    const named = new Set(this.rows.flatMap((row) => Object.values(row.variants)));
    return keys.filter((key) => named.has(key));
  }

  private renumber(petId: PetId, order: Photo[]): void {
    const positions = new Map(order.map((photo, i) => [photo.id, i + 1]));
    this.rows = this.rows.map((row) =>
      positions.has(row.id) ? { ...row, position: positions.get(row.id)! } : row,
    );
  }
}
