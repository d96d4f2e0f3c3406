import { Injectable } from '@nestjs/common';
import { Pet, PetId } from '../domain/pet';
import { PetStatus } from '../domain/pet-status';
import { DEFAULT_PAGE_SIZE, keysetPage } from '../../common/paging';
import { PetFinding, PetRepository } from './pet.repository';

export interface ListPetsQuery {
  status?: PetStatus;
  categoryId?: number;
  /** Text the name contains, compared without regard to case; every character literal. */
  name?: string;
  /** v1.3's finding filters, when any is given. */
  finding?: PetFinding;
  after?: PetId;
  limit?: number;
}

export interface PetPage {
  pets: Pet[];
  /** Id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: PetId | null;
}

@Injectable()
export class ListPets {
  constructor(private readonly pets: PetRepository) {}

  async execute(query: ListPetsQuery): Promise<PetPage> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    // Named one by one rather than with a rest and a spread: this runs on every page asked for.
    const { status, categoryId, name, finding, after } = query;
    const rows = await this.pets.findPage({
      status,
      categoryId,
      name,
      finding,
      after,
      limit: limit + 1,
    });
    const { items: pets, nextAfter } = keysetPage(rows, limit);
    return { pets, nextAfter };
  }
}
