import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event keeps who may read it as its type declared it (declareEventTypes): `everyone`
 * holding `read_scope`; the `owned` object's key holding `owner_scope` and its organisation's
 * staff holding `staff_scope`; or the one `endpoint` a ping is for. The feed and the webhooks
 * read these columns instead of knowing each type (`pets`, `orders`), so that a feature adds an
 * event type without touching a shared list or a CHECK. The events recorded before are rewritten
 * once (at most EVENT_RETENTION_DAYS of them). An instance of the previous release still writing
 * during a rolling deploy records `pets` and `orders` with no scopes: a trigger translates them as
 * the backfill does, so that its writes keep succeeding (a later release drops the trigger).
 */
export class EventReadersDeclared1795230450000 implements MigrationInterface {
  name = 'EventReadersDeclared1795230450000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "events"
        DROP CONSTRAINT "events_readers_check",
        DROP CONSTRAINT "events_check",
        ADD COLUMN "read_scope" varchar(64),
        ADD COLUMN "owner_scope" varchar(64),
        ADD COLUMN "staff_scope" varchar(64)`);
    await queryRunner.query(`
      UPDATE "events" SET
        "readers" = CASE "readers" WHEN 'pets' THEN 'everyone'
                                   WHEN 'orders' THEN 'owned' ELSE "readers" END,
        "read_scope" = CASE WHEN "readers" = 'pets' THEN 'pets:read' END,
        "owner_scope" = CASE WHEN "readers" = 'orders' THEN 'orders:read' END,
        "staff_scope" = CASE WHEN "readers" = 'orders' THEN 'orders:manage' END`);
    await queryRunner.query(`
      ALTER TABLE "events"
        ADD CONSTRAINT "events_readers_check"
          CHECK ("readers" IN ('everyone', 'owned', 'endpoint')),
        ADD CONSTRAINT "events_readers_scopes_check" CHECK (
          ("readers" = 'everyone') = ("read_scope" IS NOT NULL)
          AND ("readers" = 'owned') = ("owner_scope" IS NOT NULL AND "staff_scope" IS NOT NULL)
          AND ("owner_key_id" IS NULL) = ("readers" = 'everyone'))`);
    await queryRunner.query(`
      CREATE FUNCTION "events_readers_of_previous_release"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."readers" = 'pets' THEN
          NEW."readers" := 'everyone';
          NEW."read_scope" := 'pets:read';
        ELSIF NEW."readers" = 'orders' THEN
          NEW."readers" := 'owned';
          NEW."owner_scope" := 'orders:read';
          NEW."staff_scope" := 'orders:manage';
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "events_readers_of_previous_release" BEFORE INSERT ON "events"
        FOR EACH ROW WHEN (NEW."readers" IN ('pets', 'orders'))
        EXECUTE FUNCTION "events_readers_of_previous_release"()`);
    await queryRunner.query(`DROP INDEX "events_of_organization_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_organization_idx" ON "events" ("organization_id", "xid", "id")
         WHERE "readers" = 'owned'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "events_readers_of_previous_release" ON "events"`);
    await queryRunner.query(`DROP FUNCTION "events_readers_of_previous_release"()`);
    await queryRunner.query(`
      ALTER TABLE "events"
        DROP CONSTRAINT "events_readers_scopes_check",
        DROP CONSTRAINT "events_readers_check"`);
    await queryRunner.query(`
      UPDATE "events" SET "readers" = CASE "readers" WHEN 'everyone' THEN 'pets'
                                                     WHEN 'owned' THEN 'orders' ELSE "readers" END`);
    await queryRunner.query(`
      ALTER TABLE "events"
        DROP COLUMN "staff_scope", DROP COLUMN "owner_scope", DROP COLUMN "read_scope",
        ADD CONSTRAINT "events_readers_check" CHECK ("readers" IN ('pets', 'orders', 'endpoint')),
        ADD CONSTRAINT "events_check" CHECK (("owner_key_id" IS NULL) = ("readers" = 'pets'))`);
    await queryRunner.query(`DROP INDEX "events_of_organization_idx"`);
    await queryRunner.query(
      `CREATE INDEX "events_of_organization_idx" ON "events" ("organization_id", "xid", "id")
         WHERE "readers" = 'orders'`,
    );
  }
}
