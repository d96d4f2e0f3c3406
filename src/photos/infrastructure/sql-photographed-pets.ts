import { Injectable } from '@nestjs/common';
import { PetPayload, PetPhoto } from '../../pets/application/ports/pet-types';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetPhotoProjection } from '../../pets/application/ports/pet-photo-projection';
import { PhotographedPets } from '../application/photographed-pets';
import { PetId } from '../domain/photo';
import { photoImagesBase } from './photo-urls';

/**
 * The pet's photos as its answers show them (docs/adr/0054), made from the `photos` table in the
 * caller's transaction: each photo's URLs are the images' base ($2) and its keys.
 */
const PHOTOS_OF_PET: SqlStatement = {
  name: 'photographed_pets_photos',
  text: `SELECT coalesce(json_agg(json_build_object(
                  'id', p.id, 'position', p.position, 'width', p.width, 'height', p.height,
                  'urls', json_build_object(
                    'small', $2 || p.small_key, 'medium', $2 || p.medium_key,
                    'large', $2 || p.large_key, 'full', $2 || p.full_key))
                  ORDER BY p.position), '[]'::json) AS "photos"
           FROM photos p WHERE p.pet_id = $1`,
};

/**
 * The pets the photos feature photographs: their photos read from its own table, shown on the pet
 * by the pets feature (PetPhotoProjection, docs/adr/0068).
 */
@Injectable()
export class SqlPhotographedPets extends PhotographedPets {
  private readonly imagesBase: string;

  constructor(
    private readonly sql: SqlStatements,
    private readonly pets: PetPhotoProjection,
    config: AppConfig,
  ) {
    super();
    this.imagesBase = `${photoImagesBase(config)}/`;
  }

  async photosChanged(petId: PetId): Promise<PetPayload> {
    const [{ photos }] = await this.sql.query<{ photos: PetPhoto[] }>(PHOTOS_OF_PET, [
      petId,
      this.imagesBase,
    ]);
    const pet = await this.pets.show(petId, photos);
    // The caller holds the pet's row (PetOwnership.ownerOf, in this transaction): it cannot have gone.
    if (!pet) throw new Error(`Pet ${petId} went while its photos changed.`);
    return pet;
  }
}
