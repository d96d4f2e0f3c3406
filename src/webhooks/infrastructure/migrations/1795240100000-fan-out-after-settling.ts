import { MigrationInterface, QueryRunner } from 'typeorm';
import { FanOutToOrganizationStaff1795230500000 } from './1795230500000-fan-out-to-organization-staff';

/**
 * Deliveries are no longer inserted by a trigger in the writer's transaction, whose cost grew
 * with every key's endpoints (about 25 µs per endpoint per event), but by DeliveryFanOut once an
 * event is settled and numbered (docs/adr/0048). Its progress is the number of the last event it
 * fanned out: the greatest one numbered so far, whose deliveries the trigger made (this runs in
 * the migrations' transaction, after OpaqueEventIds1795240000000 numbered every event).
 */
export class FanOutAfterSettling1795240100000 implements MigrationInterface {
  name = 'FanOutAfterSettling1795240100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "events_fanned_out_to_webhooks" ON "events"`);
    await queryRunner.query(`DROP FUNCTION "webhook_deliveries_fan_out"()`);
    await queryRunner.query(`
      CREATE TABLE "webhook_fan_out" (
        "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
        "after_event" uuid NOT NULL
      )`);
    await queryRunner.query(`
      INSERT INTO "webhook_fan_out" ("after_event")
      SELECT coalesce((SELECT "public_id" FROM "events" WHERE "public_id" IS NOT NULL
                      ORDER BY "public_id" DESC LIMIT 1), '00000000-0000-0000-0000-000000000000')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_fan_out"`);
    await new FanOutToOrganizationStaff1795230500000().up(queryRunner);
    await queryRunner.query(`
      CREATE TRIGGER "events_fanned_out_to_webhooks" AFTER INSERT ON "events"
        REFERENCING NEW TABLE AS "recorded"
        FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_fan_out"()`);
  }
}
