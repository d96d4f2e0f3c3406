import { OpenApplications } from '../../src/pets/application/open-applications';
import { PetId } from '../../src/pets/domain/pet';

/** Open applications' counts set by the spec; each call's pets recorded, to count the queries. */
export class InMemoryOpenApplications extends OpenApplications {
  readonly counts = new Map<PetId, number>();
  readonly asked: (readonly PetId[])[] = [];

  async countsOf(petIds: readonly PetId[]): Promise<ReadonlyMap<PetId, number>> {
    this.asked.push(petIds);
    return new Map(
      petIds.flatMap((id) => (this.counts.has(id) ? [[id, this.counts.get(id)!]] : [])),
    );
  }
}
