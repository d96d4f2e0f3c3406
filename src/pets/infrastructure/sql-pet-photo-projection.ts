import { Injectable } from '@nestjs/common';
import { PetPayload } from '../domain/pet-payload';
import { PetPhoto } from '../domain/pet-photo';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { petPayloadJson } from './pet-payload.sql';
import { PetPhotoProjection } from '../application/ports/pet-photo-projection';

/**
 * The photos as answers show them, member by member in their order (the `json` column keeps its
 * text: the same photos are the same text, which the row trigger does not count as a change).
 */
const SHOW: SqlStatement = {
  name: 'pets_show_photos',
  text: `UPDATE pets SET photos = coalesce((
             SELECT json_agg(json_build_object(
                      'id', (p ->> 'id')::bigint, 'position', (p ->> 'position')::smallint,
                      'width', (p ->> 'width')::int, 'height', (p ->> 'height')::int,
                      'urls', json_build_object(
                        'small', p -> 'urls' ->> 'small', 'medium', p -> 'urls' ->> 'medium',
                        'large', p -> 'urls' ->> 'large', 'full', p -> 'urls' ->> 'full'))
                      ORDER BY (p ->> 'position')::smallint)
               FROM json_array_elements($2::json) AS p), '[]'::json)
          WHERE id = $1 AND deleted_at IS NULL
          RETURNING ${petPayloadJson('pets')} AS "payload"`,
};

@Injectable()
export class SqlPetPhotoProjection extends PetPhotoProjection {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async show(petId: number, photos: readonly PetPhoto[]): Promise<PetPayload | null> {
    const [row] = await this.sql.query<{ payload: PetPayload }>(SHOW, [
      petId,
      JSON.stringify(photos),
    ]);
    return row?.payload ?? null;
  }
}
