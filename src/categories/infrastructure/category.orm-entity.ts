import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `categories` table as its migration creates it (the unique index on `lower(name)`: CreateCategories1795220310000). */
@Entity({ name: 'categories' })
export class CategoryOrmEntity {
  // Chosen by clients; bigint comes back from pg as a string, the mapper turns it into a number.
  @PrimaryColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  name!: string | null;
}
