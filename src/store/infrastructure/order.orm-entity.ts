import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `orders` table as its migrations create it (indexes and rules: CreateOrders1795219900000, OrderHolds1795220200000). */
@Entity({ name: 'orders' })
export class OrderOrmEntity {
  // bigint comes back from pg as a string; the mapper turns it into a number.
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId!: string;

  @Column({ name: 'owner_key_id', type: 'bigint' })
  ownerKeyId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'placed_at', type: 'timestamptz' })
  placedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 16, nullable: true })
  cancelReason!: string | null;
}
