import { Injectable } from '@nestjs/common';
import { Pet, PetId } from '../domain/pet';
import { PetStatus } from '../../common/pet-status';
import { PetRepository } from './pet.repository';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListPetsQuery {
  status?: PetStatus;
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

  async execute({ status, after, limit = DEFAULT_PAGE_SIZE }: ListPetsQuery): Promise<PetPage> {
    // One extra row tells whether another page exists without a count query.
    const rows = await this.pets.findPage({ status, after, limit: limit + 1 });
    const pets = rows.slice(0, limit);
    const nextAfter = rows.length > limit ? pets[pets.length - 1].id : null;
    return { pets, nextAfter };
  }
}
