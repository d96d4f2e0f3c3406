import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `pets` table as its migrations create it (the trigger that keeps `version` and
 * `updated_at`: PetVersionsAndDeletion1795220300000; the category key and index:
 * PetCategoriesExist1795220320000; the name's trigram index: PetNameSearch1795220340000).
 */
@Entity({ name: 'pets' })
// Serves `status = $1 AND id > $2 ORDER BY id LIMIT n`: a filtered keyset page is one index range scan.
@Index('pets_status_id_idx', ['status', 'id'])
export class PetOrmEntity {
  // bigint comes back from pg as a string; the mapper turns it into a number.
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Set when the pet is deleted: the row stays for its orders, unseen by the catalogue. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
