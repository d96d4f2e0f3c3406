import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

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
}
