import { Injectable } from '@nestjs/common';
import { VersionPrecondition, admits } from '../../common/versions';
import { sqlInstant } from '../../platform/database/sql-instant';
import { AdvisoryLock, SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { OrderHold, OrderHolds } from '../../orders/application/ports/order-holds';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import {
  ApplicationChange,
  ApplicationChanged,
  ApplicationPageQuery,
  ApplicationRepository,
  NewApplication,
  SideEvent,
} from '../application/application.repository';
import { Application, ApplicationId } from '../domain/application';
import {
  ApplicationLimitError,
  ApplicationVersionMismatchError,
  DuplicateApplicationError,
  PetNotAvailableError,
} from '../domain/application.errors';
import { Questionnaire } from '../domain/questionnaire';
import { ApplicationMapper, ApplicationRow } from './application.mapper';

const COLUMNS = `id, pet_id AS "petId", organization_id AS "organizationId",
  applicant_key_id AS "applicantKeyId", status, applicant, answers,
  questionnaire_version AS "questionnaireVersion", decision_reason AS "decisionReason",
  order_id AS "orderId", closed_reason AS "closedReason", assignee_key_id AS "assigneeKeyId", notes,
  ${sqlInstant('created_at')} AS "createdAt", ${sqlInstant('updated_at')} AS "updatedAt", version`;
const OPEN = `('submitted', 'under_review', 'approved')`;

/** Serialises one key's submissions, so that each counts the key's open applications after the last. */
const applicantLock = (key: string): AdvisoryLock => [20450, Number(BigInt(key) % 2n ** 31n)];

/**
 * Stored only while the key holds fewer than $7 open applications (counting no further: a key's
 * history costs nothing), counted after the key's lock was taken, so that no two count alike; and
 * only while version $6 is the organisation's latest questionnaire (1: none stored).
 */
const INSERT: SqlStatement = {
  name: 'applications_insert',
  text: `INSERT INTO applications (pet_id, organization_id, applicant_key_id, status, applicant,
                                   applicant_email, answers, questionnaire_version)
         SELECT $1, $2, $3, 'submitted', $4, lower($4::jsonb ->> 'email'), $5, $6
          WHERE (SELECT count(*) FROM (SELECT 1 FROM applications
                                        WHERE applicant_key_id = $3 AND status IN ${OPEN}
                                        LIMIT $7) AS "open") < $7
            AND coalesce((SELECT max(version) FROM questionnaires WHERE organization_id = $2), 1)
                = $6
         RETURNING ${COLUMNS}`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'applications_find_by_id',
  text: `SELECT ${COLUMNS} FROM applications WHERE id = $1`,
};
const LOCK_BY_ID: SqlStatement = {
  name: 'applications_lock_by_id',
  text: `SELECT ${COLUMNS} FROM applications WHERE id = $1 FOR UPDATE`,
};
const LOCK_ORDER: SqlStatement = {
  name: 'applications_lock_order',
  text: 'SELECT 1 FROM orders WHERE id = $1 FOR UPDATE',
};
/**
 * Every member of a change as a parameter, null keeping the column; a note appended with its id
 * and instant. An erasure keeps the dates (`$12`): only the personal data goes.
 */
const UPDATE: SqlStatement = {
  name: 'applications_update',
  text: `UPDATE applications SET
           status = coalesce($2, status),
           decision_reason = CASE WHEN $3::boolean THEN $4 ELSE decision_reason END,
           assignee_key_id = CASE WHEN $5::boolean THEN $6::bigint ELSE assignee_key_id END,
           applicant = coalesce($7::jsonb, applicant),
           applicant_email = CASE WHEN $7::jsonb IS NULL THEN applicant_email
                                  ELSE lower($7::jsonb ->> 'email') END,
           answers = coalesce($8::jsonb, answers),
           questionnaire_version = coalesce($9, questionnaire_version),
           closed_reason = coalesce($10, closed_reason),
           order_id = coalesce($11, order_id),
           erased = erased OR $12::boolean,
           notes = CASE WHEN $13::jsonb IS NULL THEN notes
                        ELSE notes || jsonb_build_array($13::jsonb || jsonb_build_object(
                               'id', jsonb_array_length(notes) + 1,
                               'createdAt', ${sqlInstant('now()')})) END,
           updated_at = CASE WHEN $12::boolean THEN updated_at ELSE now() END,
           version = version + 1
         WHERE id = $1
         RETURNING ${COLUMNS}`,
};
const ERASABLE: SqlStatement = {
  name: 'applications_erasable',
  text: `SELECT ${COLUMNS} FROM applications
          WHERE NOT erased AND status IN ('denied', 'withdrawn', 'closed') AND updated_at <= $1
          ORDER BY updated_at LIMIT $2`,
};
const ORGANIZATION_EXISTS: SqlStatement = {
  name: 'applications_organization_exists',
  text: 'SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1) AS "exists"',
};
const LATEST_QUESTIONNAIRE: SqlStatement = {
  name: 'applications_latest_questionnaire',
  text: `SELECT version, questions FROM questionnaires WHERE organization_id = $1
          ORDER BY version DESC LIMIT 1`,
};
const QUESTIONNAIRE_VERSION: SqlStatement = {
  name: 'applications_questionnaire_version',
  text: 'SELECT version, questions FROM questionnaires WHERE organization_id = $1 AND version = $2',
};
/** The next version, only while the latest is the one the writer read. */
const SAVE_QUESTIONNAIRE: SqlStatement = {
  name: 'applications_save_questionnaire',
  text: `INSERT INTO questionnaires (organization_id, version, questions)
         SELECT $1, $2, $3
          WHERE coalesce((SELECT max(version) FROM questionnaires WHERE organization_id = $1), 1)
                = $2 - 1
         ON CONFLICT DO NOTHING RETURNING version`,
};

/**
 * A page: whose (the organisation's, the key's), each filter a condition of its own statement so
 * that each uses its index, in id order; the id range closed, as ADR 0050 says, so that a table
 * never analysed is still read along the index.
 */
const FILTERS = ['status', 'pet_id', 'assignee_key_id'] as const;
function pageStatement(
  whose: 'organization_id' | 'applicant_key_id',
  given: boolean[],
): SqlStatement {
  let n = 4;
  const where = FILTERS.filter((_, i) => given[i]).map((column) => `AND ${column} = $${n++}`);
  return {
    name: `applications_page_of_${whose === 'organization_id' ? 'organization' : 'key'}_${given
      .map((g) => (g ? 1 : 0))
      .join('')}`,
    text: `SELECT ${COLUMNS} FROM applications
            WHERE ${whose} = $1 ${where.join(' ')}
              AND id > $2 AND id <= ${Number.MAX_SAFE_INTEGER}
            ORDER BY id LIMIT $3`,
  };
}
const PAGES = new Map<string, SqlStatement>();
for (const whose of ['organization_id', 'applicant_key_id'] as const) {
  for (let flags = 0; flags < 8; flags += 1) {
    const given = FILTERS.map((_, i) => (flags & (1 << i)) !== 0);
    PAGES.set(`${whose}:${flags}`, pageStatement(whose, given));
  }
}

/** The order's event, then its pet's, as the orders feature records them for a change of its own. */
const sideEvents = (
  type: 'order.placed' | 'order.cancelled',
  { order, pet, owner, organizationId: organization }: OrderHold,
): SideEvent[] => [
  { type, data: order, owner, organization },
  { type: 'pet.updated', data: pet, organization },
];

const isUniqueViolation = (error: unknown, constraint: string) =>
  (error as { code?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === constraint;

/** How many organisations' latest questionnaires an instance remembers. */
const KNOWN_QUESTIONNAIRES = 1_000;

@Injectable()
export class SqlApplicationRepository extends ApplicationRepository {
  /**
   * Each organisation's latest questionnaire (null: none stored, the default) as this instance
   * last read it: a submission validates against it without reading it again, and its INSERT
   * checks that it is still the latest (add). Versions never change once saved.
   */
  private readonly latestQuestionnaires = new Map<number, Questionnaire | null>();

  constructor(
    private readonly sql: SqlStatements,
    private readonly orders: OrderHolds,
    private readonly pets: PetOwnership,
  ) {
    super();
  }

  submitting<T>(applicantKeyId: string, work: () => Promise<T>): Promise<T> {
    // The lock goes with the transaction's first statement, in its round trip; add's is then held.
    return this.sql.transaction(work, applicantLock(applicantKeyId));
  }

  add(application: NewApplication, openLimit: number): Promise<Application | null> {
    const { petId, organizationId, applicantKeyId, applicant, answers, questionnaireVersion } =
      application;
    return this.sql.transaction(async () => {
      const rows = await this.sql
        .query<ApplicationRow>(INSERT, [
          petId,
          organizationId,
          applicantKeyId,
          JSON.stringify(applicant),
          JSON.stringify(answers),
          questionnaireVersion,
          openLimit,
        ])
        .catch((error: unknown) => {
          if (isUniqueViolation(error, 'applications_one_open_per_applicant')) {
            throw new DuplicateApplicationError(petId);
          }
          throw error;
        });
      if (rows.length > 0) return ApplicationMapper.toDomain(rows[0]);
      // Refused: the rare case of a newer questionnaire is told apart by reading it, once.
      const latest = await this.readLatestQuestionnaire(organizationId);
      if ((latest?.version ?? 1) !== questionnaireVersion) return null;
      throw new ApplicationLimitError(openLimit);
    }, applicantLock(applicantKeyId));
  }

  async findById(id: ApplicationId): Promise<Application | null> {
    const [row] = await this.sql.query<ApplicationRow>(FIND_BY_ID, [id]);
    return row ? ApplicationMapper.toDomain(row) : null;
  }

  async findPage(query: ApplicationPageQuery): Promise<Application[]> {
    const staff = query.organization !== undefined;
    const given = [query.status, query.petId, query.assigneeKeyId];
    const flags = given.reduce<number>((f, value, i) => f | (value === undefined ? 0 : 1 << i), 0);
    const statement = PAGES.get(`${staff ? 'organization_id' : 'applicant_key_id'}:${flags}`)!;
    const values: unknown[] = [
      staff ? query.organization : query.applicantKeyId,
      query.after ?? 0,
      query.limit + 1,
      ...given.filter((value) => value !== undefined),
    ];
    const rows = await this.sql.query<ApplicationRow>(statement, values);
    return rows.map(ApplicationMapper.toDomain);
  }

  change(
    id: ApplicationId,
    intent: 'plain' | 'hold' | 'release',
    precondition: VersionPrecondition | undefined,
    decide: (current: Application) => ApplicationChange | null,
  ): Promise<ApplicationChanged | null> {
    return this.sql.transaction(async () => {
      // The lock order (docs/adr/0046): a hold locks its pet before the application, as an
      // order's end (orders, pets, then the applications its trigger closes); a release locks
      // the order first, as every change of an order does.
      const [peek] = await this.sql.query<ApplicationRow>(FIND_BY_ID, [id]);
      if (!peek) return null;
      if (intent === 'hold') {
        await this.pets.ownerOf(Number(peek.petId), { lock: true, deleted: true });
      }
      if (intent === 'release' && peek.orderId !== null) {
        await this.sql.query(LOCK_ORDER, [peek.orderId]);
      }
      const [row] = await this.sql.query<ApplicationRow>(LOCK_BY_ID, [id]);
      const current = ApplicationMapper.toDomain(row);
      if (!admits(precondition, current.version)) {
        throw new ApplicationVersionMismatchError(`Application ${id}`, current.version);
      }
      const change = decide(current);
      if (!change) return { application: current, side: [] };
      const side: SideEvent[] = [];
      let orderId: number | null = null;
      if (change.order === 'hold') {
        const held = await this.hold(current);
        orderId = held.orderId;
        side.push(...held.side);
      }
      const [updated] = await this.sql
        .query<ApplicationRow>(UPDATE, [
          id,
          change.status ?? null,
          change.decisionReason !== undefined,
          change.decisionReason ?? null,
          change.assigneeKeyId !== undefined,
          change.assigneeKeyId ?? null,
          change.applicant === undefined ? null : JSON.stringify(change.applicant),
          change.answers === undefined ? null : JSON.stringify(change.answers),
          change.questionnaireVersion ?? null,
          change.closedReason ?? null,
          orderId,
          change.erased ?? false,
          change.note === undefined ? null : JSON.stringify(change.note),
        ])
        .catch((error: unknown) => {
          if (isUniqueViolation(error, 'applications_one_approved_per_pet')) {
            throw new PetNotAvailableError(current.petId, 'another application is approved');
          }
          throw error;
        });
      // After the application left `approved`, so that the order's end closes nothing.
      if (change.order === 'release' && current.orderId !== null) {
        side.push(...(await this.release(current.orderId)));
      }
      return { application: ApplicationMapper.toDomain(updated), side };
    });
  }

  /**
   * The hold: an order for the applicant's key, placed through the orders feature (OrderHolds),
   * which holds the pet through the pets feature, in this transaction.
   */
  private async hold(current: Application): Promise<{ orderId: number; side: SideEvent[] }> {
    const held = await this.orders.placeFor(current.petId, current.applicantKeyId);
    if (!held) {
      const pet = await this.pets.ownerOf(current.petId, { deleted: true });
      const status = !pet || pet.deleted ? 'deleted' : pet.status;
      throw new PetNotAvailableError(
        current.petId,
        status === 'pending' ? 'it is held (by an order or by hand)' : `it is ${status}`,
      );
    }
    return { orderId: held.orderId, side: sideEvents('order.placed', held) };
  }

  /** The hold's end asked by its applicant: as a client's cancellation of the order. */
  private async release(orderId: number): Promise<SideEvent[]> {
    const released = await this.orders.cancel(orderId);
    return released ? sideEvents('order.cancelled', released) : [];
  }

  async findErasable(before: Date, limit: number): Promise<Application[]> {
    const rows = await this.sql.query<ApplicationRow>(ERASABLE, [before.toISOString(), limit]);
    return rows.map(ApplicationMapper.toDomain);
  }

  async organizationExists(organization: number): Promise<boolean> {
    const [row] = await this.sql.query<{ exists: boolean }>(ORGANIZATION_EXISTS, [organization]);
    return row.exists;
  }

  async questionnaire(organization: number, version?: number): Promise<Questionnaire | null> {
    if (version === undefined) return this.readLatestQuestionnaire(organization);
    const [row] = await this.sql.query<Questionnaire>(QUESTIONNAIRE_VERSION, [
      organization,
      version,
    ]);
    return row ?? null;
  }

  latestKnownQuestionnaire(
    organization: number,
  ): Promise<Questionnaire | null> | Questionnaire | null {
    const known = this.latestQuestionnaires.get(organization);
    return known !== undefined ? known : this.readLatestQuestionnaire(organization);
  }

  /** The latest stored version, read now, and remembered as this instance's latest known. */
  private async readLatestQuestionnaire(organization: number): Promise<Questionnaire | null> {
    const [row] = await this.sql.query<Questionnaire>(LATEST_QUESTIONNAIRE, [organization]);
    this.remember(organization, row ?? null);
    return row ?? null;
  }

  private remember(organization: number, questionnaire: Questionnaire | null): void {
    const known = this.latestQuestionnaires;
    known.delete(organization);
    known.set(organization, questionnaire);
    // The least recently learnt goes first.
    if (known.size > KNOWN_QUESTIONNAIRES) known.delete(known.keys().next().value!);
  }

  async saveQuestionnaire(
    organization: number,
    expected: number,
    questionnaire: Questionnaire,
  ): Promise<boolean> {
    const rows = await this.sql.query(SAVE_QUESTIONNAIRE, [
      organization,
      expected + 1,
      JSON.stringify(questionnaire.questions),
    ]);
    // Not remembered: the transaction may still roll back. Add finds the new version out.
    return rows.length === 1;
  }
}
