import { Injectable } from '@nestjs/common';
import { sqlInstant } from '../../platform/database/sql-instant';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PhotoRepository } from '../application/photo.repository';
import { NewPhoto, PetId, Photo, PhotoId } from '../domain/photo';
import { PhotoKey } from '../domain/photo-key';

interface PhotoRow {
  id: string;
  petId: string;
  position: number;
  width: number;
  height: number;
  small: string;
  medium: string;
  large: string;
  full: string;
  createdAt: string;
}

const toDomain = (row: PhotoRow): Photo => ({
  id: Number(row.id),
  petId: Number(row.petId),
  position: row.position,
  width: row.width,
  height: row.height,
  variants: { small: row.small, medium: row.medium, large: row.large, full: row.full },
  createdAt: row.createdAt,
});

// Fixed statement text: a request builds no SQL (docs/adr/0008).
const COLUMNS = `id, pet_id AS "petId", position, width, height, small_key AS "small",
  medium_key AS "medium", large_key AS "large", full_key AS "full",
  ${sqlInstant('created_at')} AS "createdAt"`;

const COUNT: SqlStatement = {
  name: 'photos_count',
  text: 'SELECT count(*)::int AS "count" FROM photos WHERE pet_id = $1',
};
const LIST: SqlStatement = {
  name: 'photos_of_pet',
  text: `SELECT ${COLUMNS} FROM photos WHERE pet_id = $1 ORDER BY position`,
};
const FIND: SqlStatement = {
  name: 'photos_find',
  text: `SELECT ${COLUMNS} FROM photos WHERE pet_id = $1 AND id = $2`,
};
/** After the pet's last photo; the caller holds the pet, so no one else counts them meanwhile. */
const ADD: SqlStatement = {
  name: 'photos_add',
  text: `INSERT INTO photos (pet_id, position, width, height, small_key, medium_key, large_key, full_key)
         SELECT $1, coalesce(max(position), 0) + 1, $2, $3, $4, $5, $6, $7
           FROM photos WHERE pet_id = $1
         RETURNING ${COLUMNS}`,
};
/**
 * The photo to $3, and each photo between its old place and the new one a place toward the old,
 * in one statement (the unique positions are checked at commit). Nothing moves when $3 is beyond
 * the pet's photos or the photo is none of the pet's.
 */
const MOVE: SqlStatement = {
  name: 'photos_move',
  text: `WITH "moving" AS (
           SELECT position AS "from" FROM photos WHERE pet_id = $1 AND id = $2
         ), "moved" AS (
           UPDATE photos SET position = CASE
               WHEN id = $2 THEN $3::int
               WHEN "from" < $3::int THEN position - 1
               ELSE position + 1
             END
             FROM "moving"
            WHERE pet_id = $1
              AND position BETWEEN least("from", $3::int) AND greatest("from", $3::int)
              AND $3::int <= (SELECT count(*) FROM photos WHERE pet_id = $1)
           RETURNING ${COLUMNS}
         )
         SELECT * FROM "moved" WHERE id = $2`,
};
const REMOVE: SqlStatement = {
  name: 'photos_remove',
  text: `WITH "removed" AS (
           DELETE FROM photos WHERE pet_id = $1 AND id = $2 RETURNING ${COLUMNS}
         ), "closed" AS (
           UPDATE photos SET position = position - 1
            WHERE pet_id = $1 AND position > (SELECT position FROM "removed")
         )
         SELECT * FROM "removed"`,
};
/** Served by the GIN index over the four keys (CreatePhotos1795221000000). */
const REFERENCED: SqlStatement = {
  name: 'photos_referenced',
  text: `SELECT DISTINCT key FROM photos,
                unnest(ARRAY[small_key, medium_key, large_key, full_key]) AS key
          WHERE ARRAY[small_key, medium_key, large_key, full_key] && $1::varchar[]
            AND key = ANY($1::varchar[])`,
};

/** The photos in PostgreSQL, through SqlStatements: each statement joins the caller's transaction. */
@Injectable()
export class SqlPhotoRepository extends PhotoRepository {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async countOf(petId: PetId): Promise<number> {
    const [{ count }] = await this.sql.query<{ count: number }>(COUNT, [petId]);
    return count;
  }

  async listOf(petId: PetId): Promise<Photo[]> {
    return (await this.sql.query<PhotoRow>(LIST, [petId])).map(toDomain);
  }

  async find(petId: PetId, photoId: PhotoId): Promise<Photo | null> {
    const [row] = await this.sql.query<PhotoRow>(FIND, [petId, photoId]);
    return row ? toDomain(row) : null;
  }

  async add({ petId, width, height, variants }: NewPhoto): Promise<Photo> {
    const { small, medium, large, full } = variants;
    const [row] = await this.sql.query<PhotoRow>(ADD, [
      petId,
      width,
      height,
      small,
      medium,
      large,
      full,
    ]);
    return toDomain(row);
  }

  async move(petId: PetId, photoId: PhotoId, position: number): Promise<Photo | null> {
    const [row] = await this.sql.query<PhotoRow>(MOVE, [petId, photoId, position]);
    return row ? toDomain(row) : null;
  }

  async remove(petId: PetId, photoId: PhotoId): Promise<Photo | null> {
    const [row] = await this.sql.query<PhotoRow>(REMOVE, [petId, photoId]);
    return row ? toDomain(row) : null;
  }

  async referenced(keys: readonly PhotoKey[]): Promise<PhotoKey[]> {
    if (keys.length === 0) return [];
    const rows = await this.sql.query<{ key: string }>(REFERENCED, [keys]);
    return rows.map(({ key }) => key);
  }
}
