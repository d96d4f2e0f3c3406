import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fan-out's progress can stop within an event (docs/adr/0056): a statement makes at most a
 * bounded number of deliveries, so an event to 10,000 endpoints is fanned out over several, each
 * short and paced. `after_endpoint` is the last endpoint the event `after_event` was fanned out
 * to; NULL when it was fanned out to all of them (every row until now).
 */
export class FanOutBoundedInDeliveries1795240156000 implements MigrationInterface {
  name = 'FanOutBoundedInDeliveries1795240156000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_fan_out" ADD COLUMN "after_endpoint" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The old progress is per event: an event fanned out partly is fanned out again, whole. Its
    // endpoints reached already get a second delivery, rather than the others none.
    await queryRunner.query(`
      UPDATE "webhook_fan_out" f
         SET "after_event" = coalesce(
               (SELECT "public_id" FROM "events" WHERE "public_id" < f."after_event"
                 ORDER BY "public_id" DESC LIMIT 1),
               '00000000-0000-0000-0000-000000000000')
       WHERE "after_endpoint" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "webhook_fan_out" DROP COLUMN "after_endpoint"`);
  }
}
