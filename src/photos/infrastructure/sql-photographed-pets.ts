import { Injectable } from '@nestjs/common';
import { PetPayload } from '../../common/events/pet-payload';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { petPayloadJson } from '../../platform/event-log/pet-payload.sql';
import { PhotographedPets } from '../application/photographed-pets';
import { PetId } from '../domain/photo';
import { photoImagesBase } from './photo-urls';

/**
 * The pet's `photos` as its answers show them (docs/adr/0054), made again from the `photos` table
 * in the caller's transaction: each photo's URLs are the images' base ($2) and its keys. The row
 * trigger counts a changed column as a new version of the pet.
 */
const PHOTOS_CHANGED: SqlStatement = {
  name: 'photographed_pets_photos_changed',
  text: `UPDATE pets SET photos = coalesce((
             SELECT json_agg(json_build_object(
                      'id', p.id, 'position', p.position, 'width', p.width, 'height', p.height,
                      'urls', json_build_object(
                        'small', $2 || p.small_key, 'medium', $2 || p.medium_key,
                        'large', $2 || p.large_key, 'full', $2 || p.full_key))
                      ORDER BY p.position)
               FROM photos p WHERE p.pet_id = $1), '[]'::json)
          WHERE id = $1 AND deleted_at IS NULL
          RETURNING ${petPayloadJson('pets')} AS "payload"`,
};

/** The pets the photos feature photographs, read and updated in SQL (its port's adapter). */
@Injectable()
export class SqlPhotographedPets extends PhotographedPets {
  private readonly imagesBase: string;

  constructor(
    private readonly sql: SqlStatements,
    config: AppConfig,
  ) {
    super();
    this.imagesBase = `${photoImagesBase(config)}/`;
  }

  async photosChanged(petId: PetId): Promise<PetPayload> {
    const [row] = await this.sql.query<{ payload: PetPayload }>(PHOTOS_CHANGED, [
      petId,
      this.imagesBase,
    ]);
    // The caller holds the pet's row (PetOwnership.ownerOf, in this transaction): it cannot have gone.
    if (!row) throw new Error(`Pet ${petId} went while its photos changed.`);
    return row.payload;
  }
}
