import { Injectable } from '@nestjs/common';
import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { Pet } from '../domain/pet';
import { OpenApplications } from './open-applications';

/** A pet as answered: with its open applications' count when the requester reviews them. */
export type PetAnswer<P extends Pet = Pet> = P & { openApplications?: number };

/**
 * Adds `openApplications` to the pets the requester reviews applications for (`applications:manage`,
 * staff of the pet's organisation: the audience that reads those applications); to anyone else the
 * member is absent. One aggregate for the page, and none at all when no pet of it is the
 * requester's to review: an adopter's listing costs what it did (docs/adr/0067).
 */
@Injectable()
export class ShowOpenApplications {
  constructor(private readonly openApplications: OpenApplications) {}

  async execute<P extends Pet>(requester: Requester, pets: P[]): Promise<PetAnswer<P>[]> {
    if (!requester.scopes.includes('applications:manage')) return pets;
    const reviewed = pets.filter((pet) => isStaffOf(requester, pet.organizationId));
    if (reviewed.length === 0) return pets;
    const counts = await this.openApplications.countsOf(reviewed.map((pet) => pet.id));
    return pets.map((pet) =>
      isStaffOf(requester, pet.organizationId)
        ? { ...pet, openApplications: counts.get(pet.id) ?? 0 }
        : pet,
    );
  }
}
