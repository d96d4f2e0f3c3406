import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event names the organisation its object belongs to (a pet's, an order's pet's): the staff
 * of that organisation who manage orders read its order events, and no one else's (the feed's and
 * the webhooks' visibility rule). Every event recorded before belongs to organisation 1, which
 * owned every pet: the column is added with that constant default (no table rewrite, however many
 * events), kept for an instance of the previous release recording during a rolling deploy. A ping
 * (`webhook.test`) belongs to no organisation: null.
 */
export class EventsOfOrganizations1795230400000 implements MigrationInterface {
  name = 'EventsOfOrganizations1795230400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" ADD COLUMN "organization_id" bigint DEFAULT 1`);
    // An organisation's order events, for its staff reading the feed.
    await queryRunner.query(
      `CREATE INDEX "events_of_organization_idx" ON "events" ("organization_id", "xid", "id")
         WHERE "readers" = 'orders'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "organization_id"`);
  }
}
