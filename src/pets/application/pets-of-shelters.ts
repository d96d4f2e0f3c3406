import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/domain-error';
import { PetPayload } from '../domain/pet-payload';
import { EventRecorder } from '../../common/events/event-recorder';
import { NewEvent } from '../../common/events/event';
import { RowOutcome, RowProblem, ShelterPets, StatedPet } from './ports/shelter-pets';
import { newPet, NewPet, Pet, petEvent } from '../domain/pet';
import { checkUpdate } from '../domain/pet-rules';
import {
  changesNothing,
  patchedPet,
  statedPatch,
  statedPet,
  StatedPetInput,
} from '../domain/stated-pet';
import { PetRepository } from './pet.repository';

/** The member a domain refusal names: its message starts with it ("breed.primary must …"). */
const fieldOf = (error: DomainError) => /^([A-Za-z.]+) /.exec(error.message)?.[1] ?? null;

/**
 * ShelterPets as the pets feature answers it: each row checked by the rules createPet and updatePet
 * apply, the pet found by its external id among the organisation's, created or changed with its
 * event, or left alone when the row states it as it is.
 */
@Injectable()
export class PetsOfShelters extends ShelterPets {
  constructor(
    private readonly pets: PetRepository,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {
    super();
  }

  async upsert(
    organizationId: number,
    rows: readonly StatedPet[],
    dryRun: boolean,
  ): Promise<RowOutcome[]> {
    const now = this.clock.now();
    const stated = rows.map(({ row, pet }) => statedPet(row, pet));
    const externalIds = stated.flatMap((s) => ('row' in s ? [] : [s.externalId]));
    const batch: Batch = {
      organizationId,
      dryRun,
      now,
      known: new Map<string, Pet>(
        (await this.pets.findByExternalIds(organizationId, externalIds)).map((pet) => [
          pet.externalId!,
          pet,
        ]),
      ),
      adding: new Map(),
      recorded: [],
    };
    const outcomes: RowOutcome[] = [];
    for (const [index, input] of stated.entries()) {
      if ('row' in input) {
        outcomes.push(input);
        continue;
      }
      try {
        outcomes.push(await this.one(batch, input));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const problem: RowProblem = {
          row: rows[index].row,
          field: error.code === 'validation_failed' ? fieldOf(error) : null,
          issue: error.code === 'validation_failed' ? 'invalid' : error.code,
          message: error.message,
        };
        outcomes.push(problem);
      }
    }
    await this.addPending(batch);
    if (batch.recorded.length > 0) await this.events.record(batch.recorded);
    return outcomes;
  }

  async page(organizationId: number, after: number, limit: number): Promise<PetPayload[]> {
    return this.pets.findPage({ finding: { organizationId }, after, limit });
  }

  /** One row: created, changed or unchanged; the batch learns what it leaves (a later row may name it). */
  private async one(batch: Batch, input: StatedPetInput): Promise<RowOutcome> {
    const { organizationId, known, adding, recorded, dryRun, now } = batch;
    // A row naming a pet an earlier row of the batch creates: those are added first.
    if (adding.has(input.externalId)) await this.addPending(batch);
    const current = known.get(input.externalId);
    if (!current) {
      const pet = newPet(input, organizationId, now);
      // Added with the batch's other new pets in one statement (addPending), in row order.
      if (!dryRun) adding.set(input.externalId, pet);
      known.set(input.externalId, asIfStored(pet));
      return 'created';
    }
    const patch = statedPatch(input, now);
    if (changesNothing(current, patch)) return 'unchanged';
    if (dryRun) {
      known.set(input.externalId, patchedPet(current, patch));
      return 'updated';
    }
    const update = await this.pets.update(
      current.id,
      organizationId,
      patch,
      undefined,
      (pet, adoption) => checkUpdate(pet, patch, adoption),
    );
    // Deleted meanwhile (between the batch's read and this row): made again, as a new animal.
    if (!update) {
      known.delete(input.externalId);
      return this.one(batch, input);
    }
    if (update.changed) recorded.push(petEvent('pet.updated', update.pet));
    known.set(input.externalId, update.pet);
    return update.changed ? 'updated' : 'unchanged';
  }

  /** The batch's new pets so far, added in one statement, each with its `pet.created` event. */
  private async addPending(batch: Batch): Promise<void> {
    if (batch.adding.size === 0) return;
    const added = await this.pets.addMany([...batch.adding.values()]);
    batch.adding.clear();
    for (const pet of added) {
      batch.recorded.push(petEvent('pet.created', pet));
      batch.known.set(pet.externalId!, pet);
    }
  }
}

/** What a batch of rows knows as it goes: the pets it found or made, and those it will add. */
interface Batch {
  readonly organizationId: number;
  readonly dryRun: boolean;
  readonly now: Date;
  /** The organisation's pets by external id, as the rows so far leave them. */
  readonly known: Map<string, Pet>;
  /** New pets not yet added, by external id, in row order. */
  readonly adding: Map<string, NewPet>;
  readonly recorded: NewEvent[];
}

/** A new pet as a dry run pictures it: what a later row naming it is compared with. */
const asIfStored = (pet: ReturnType<typeof newPet>): Pet => ({
  ...pet,
  id: 0,
  photos: [],
  version: 1,
  createdAt: '',
  updatedAt: '',
});
