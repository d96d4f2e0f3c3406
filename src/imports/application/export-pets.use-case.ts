import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { ShelterPets } from '../../pets/application/ports/shelter-pets';
import { OrganizationNotFoundError } from '../domain/import.errors';
import { cellsOfPet, csvLine, PET_COLUMNS } from '../domain/pet-columns';
import { PETFINDER_COLUMNS, petfinderCells } from '../domain/petfinder';
import { ExportLookups } from './export-lookups';

export const EXPORT_FORMATS = ['csv', 'ndjson', 'petfinder'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Pets read a page at a time: what an export holds in memory, however many it writes. */
export const EXPORT_PAGE = 500;

/**
 * GET /v1/organizations/{id}/pets/export: every live pet of the organisation, as text produced a
 * page at a time from a keyset walk (constant memory, whatever the number of pets). `csv` in the
 * import's columns (it imports back unchanged), `ndjson` one Pet a line, `petfinder` in
 * Petfinder's upload columns and codes.
 */
@Injectable()
export class ExportPets {
  constructor(
    private readonly pets: ShelterPets,
    private readonly lookups: ExportLookups,
  ) {}

  async execute(
    requester: Requester,
    organizationId: number,
    format: ExportFormat,
  ): Promise<AsyncIterable<string>> {
    checkScope(['pets:read'], requester.scopes);
    if (!(await this.lookups.organizationExists(organizationId))) {
      throw new OrganizationNotFoundError(organizationId);
    }
    return this.lines(organizationId, format);
  }

  private async *lines(organizationId: number, format: ExportFormat): AsyncIterable<string> {
    if (format === 'csv') yield csvLine(PET_COLUMNS);
    if (format === 'petfinder') yield csvLine(PETFINDER_COLUMNS);
    for (let after = 0; ;) {
      const page = await this.pets.page(organizationId, after, EXPORT_PAGE);
      if (page.length === 0) return;
      const types =
        format === 'petfinder'
          ? await this.lookups.categoryNames([...new Set(page.map((pet) => pet.categoryId))])
          : undefined;
      yield page
        .map((pet) =>
          format === 'csv'
            ? csvLine(cellsOfPet(pet))
            : format === 'petfinder'
              ? csvLine(petfinderCells(pet, types!.get(pet.categoryId) ?? null))
              : `${JSON.stringify(pet)}\n`,
        )
        .join('');
      after = page[page.length - 1].id;
    }
  }
}
