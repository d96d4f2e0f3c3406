import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { ReleasedImage, ReleasedImages } from '../application/released-images';

/** Written by the trigger photos_go_with_their_pet (PhotosGoWithTheirPet1795240158400). */
const NEXT: SqlStatement = {
  name: 'photo_images_released_next',
  text: `SELECT id, key FROM photo_images_released ORDER BY id LIMIT $1`,
};
const FORGET: SqlStatement = {
  name: 'photo_images_released_forget',
  text: `DELETE FROM photo_images_released WHERE id = ANY($1::bigint[])`,
};

/** The released images in PostgreSQL (the port's adapter), read and forgotten in SQL. */
@Injectable()
export class SqlReleasedImages extends ReleasedImages {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async next(limit: number): Promise<ReleasedImage[]> {
    const rows = await this.sql.query<{ id: string; key: string }>(NEXT, [limit]);
    return rows.map(({ id, key }) => ({ id: Number(id), key }));
  }

  async forget(ids: readonly number[]): Promise<void> {
    await this.sql.query(FORGET, [ids]);
  }
}
