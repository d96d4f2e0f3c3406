import {
  ChangeRule,
  PetPageQuery,
  PetRepository,
  PetUpdate,
} from '../../src/pets/application/pet.repository';
import { NewPet, Pet, PetId, PetPatch } from '../../src/pets/domain/pet';
import { admits, VersionPrecondition } from '../../src/common/versions';
import { PetVersionMismatchError } from '../../src/pets/domain/pet.errors';
import { patchedProfile } from '../../src/pets/domain/pet-profile';

/**
 * A PetRepository kept in an array, for unit tests of the use cases: versions counted as the
 * database counts them, deleted pets kept but never seen, one caller at a time.
 */
export class InMemoryPetRepository extends PetRepository {
  private readonly rows: (Pet & { deleted: boolean })[] = [];
  private lastId = 0;
  /** Pets an open order holds: tests set them, as the store would. */
  readonly openOrders = new Set<PetId>();
  /** The clock, as the database's `now()`; tests move it. */
  now = '2026-11-23T12:00:00.000Z';

  async add(pet: NewPet): Promise<Pet> {
    const stored = {
      ...pet,
      id: ++this.lastId,
      photos: [],
      version: 1,
      createdAt: this.now,
      updatedAt: this.now,
    };
    this.rows.push({ ...stored, deleted: false });
    return stored;
  }

  async addMany(pets: readonly NewPet[]): Promise<Pet[]> {
    const added: Pet[] = [];
    for (const pet of pets) added.push(await this.add(pet));
    return added;
  }

  async findById(id: PetId): Promise<Pet | null> {
    const row = this.live(id);
    return row ? this.pet(row) : null;
  }

  async findByExternalIds(organizationId: number, externalIds: readonly string[]): Promise<Pet[]> {
    return this.rows
      .filter(
        (pet) =>
          !pet.deleted &&
          pet.organizationId === organizationId &&
          pet.externalId !== null &&
          externalIds.includes(pet.externalId),
      )
      .map((row) => this.pet(row));
  }

  async findPage(query: PetPageQuery): Promise<Pet[]> {
    const { status, categoryId, name, finding: f = {}, after = 0, limit } = query;
    const among = <T>(values: readonly T[] | undefined, value: T) =>
      values === undefined || values.includes(value);
    const breed = f.breed?.toLowerCase();
    return this.rows
      .filter(
        (pet) =>
          !pet.deleted &&
          pet.id > after &&
          (!status || pet.status === status) &&
          (categoryId === undefined || pet.categoryId === categoryId) &&
          (f.externalId === undefined || pet.externalId === f.externalId) &&
          (name === undefined || pet.name.toLowerCase().includes(name.toLowerCase())) &&
          among(f.statuses, pet.status) &&
          (f.organizationId === undefined || pet.organizationId === f.organizationId) &&
          (breed === undefined ||
            pet.breed.primary?.toLowerCase() === breed ||
            pet.breed.secondary?.toLowerCase() === breed) &&
          (pet.age === null ? !f.ages : among(f.ages, pet.age)) &&
          (pet.sex === null ? !f.sexes : among(f.sexes, pet.sex)) &&
          (pet.size === null ? !f.sizes : among(f.sizes, pet.size)) &&
          (f.goodWith ?? []).every((word) => pet.environment[word] === true) &&
          (f.houseTrained === undefined || pet.attributes.houseTrained === f.houseTrained) &&
          (f.specialNeeds === undefined || pet.attributes.specialNeeds === f.specialNeeds),
      )
      .slice(0, limit)
      .map((row) => this.pet(row));
  }

  async update(
    id: PetId,
    owner: number,
    patch: PetPatch,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<PetUpdate | null> {
    const row = this.allowed(id, owner, precondition, rule);
    if (!row) return null;
    const { name, categoryId, status, externalId, ...profile } = patch;
    const fields = {
      name: name ?? row.name,
      categoryId: categoryId ?? row.categoryId,
      status: status ?? row.status,
      externalId: externalId === undefined ? row.externalId : externalId,
    };
    const next = { ...patchedProfile(row, profile), ...fields };
    // Compared as the database's trigger compares the row: any field or profile member.
    const changed = Object.entries(next).some(
      ([member, value]) => JSON.stringify(value) !== JSON.stringify(row[member as keyof Pet]),
    );
    if (changed) Object.assign(row, next, { version: row.version + 1, updatedAt: this.now });
    return { pet: this.pet(row), changed };
  }

  async remove(
    id: PetId,
    owner: number,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<Pet | null> {
    const row = this.allowed(id, owner, precondition, rule);
    if (!row) return null;
    Object.assign(row, { deleted: true, version: row.version + 1, updatedAt: this.now });
    return this.pet(row);
  }

  private live(id: PetId) {
    return this.rows.find((pet) => pet.id === id && !pet.deleted);
  }

  /**
   * The pet to change, if it exists among the owner's, its version meets the precondition and the
   * rule allows.
   */
  private allowed(
    id: PetId,
    owner: number,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ) {
    const row = this.live(id);
    if (!row || row.organizationId !== owner) return undefined;
    if (!admits(precondition, row.version)) throw new PetVersionMismatchError(id, row.version);
    rule(this.pet(row), { openOrder: this.openOrders.has(id) });
    return row;
  }

  private pet({ deleted: _, ...pet }: Pet & { deleted: boolean }): Pet {
    return { ...pet };
  }
}
