import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order names the organisation whose pet it is (docs/adr/0040): that organisation's staff
 * manage it, and no one else's. Pets never change organisation, so the order keeps it from its
 * placement, and a page of an organisation's orders is one index range. Every order that existed
 * was for a pet of organisation 1: a constant default (no table rewrite), kept for an instance of
 * the previous release placing an order during a rolling deploy, when organisation 1 is the only
 * one with pets.
 */
export class OrdersOfOrganizations1795230300000 implements MigrationInterface {
  name = 'OrdersOfOrganizations1795230300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "orders" ADD COLUMN "organization_id" bigint NOT NULL DEFAULT 1`,
    );
    await queryRunner.query(
      `CREATE INDEX "orders_organization_id_idx" ON "orders" ("organization_id", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "organization_id"`);
  }
}
