import { VersionPrecondition } from '../../common/versions';
import {
  Applicant,
  Application,
  ApplicationId,
  ApplicationStatus,
  ClosedReason,
  Note,
  PetId,
} from '../domain/application';
import { Questionnaire } from '../domain/questionnaire';

export interface NewApplication {
  readonly petId: PetId;
  /** The pet's, as the pets feature answered (PetOwnership) under the pet's lock. */
  readonly organizationId: number;
  readonly applicantKeyId: string;
  readonly applicant: Applicant;
  readonly answers: Record<string, unknown>;
  readonly questionnaireVersion: number;
}

export interface ApplicationPageQuery {
  /** The organisation's applications (staff), or else the key's own. */
  readonly organization?: number;
  readonly applicantKeyId?: string;
  readonly status?: ApplicationStatus;
  readonly petId?: PetId;
  readonly assigneeKeyId?: string;
  readonly after?: ApplicationId;
  readonly limit: number;
}

/** What a change writes; absent members stay. */
export interface ApplicationChange {
  readonly status?: ApplicationStatus;
  readonly decisionReason?: string | null;
  readonly assigneeKeyId?: string | null;
  readonly applicant?: Applicant;
  readonly answers?: Record<string, unknown>;
  readonly questionnaireVersion?: number;
  readonly closedReason?: ClosedReason;
  readonly erased?: boolean;
  readonly note?: Omit<Note, 'id' | 'createdAt'>;
  /**
   * `hold`: place an order for the applicant's key, the pet becoming pending (approval);
   * `release`: cancel the application's open order, the pet available again (withdrawal, erasure).
   */
  readonly order?: 'hold' | 'release';
}

/** An event of another feature's object that a change of an application made (a hold's order). */
export interface SideEvent {
  readonly type: 'order.placed' | 'order.cancelled' | 'pet.updated';
  readonly data: object;
  readonly owner?: string;
  readonly organization: number;
}

export interface ApplicationChanged {
  readonly application: Application;
  readonly side: readonly SideEvent[];
}

/**
 * Port: where applications and questionnaires are kept. A change made in a use case's transaction
 * joins it; each change of one application is decided under its lock, in the lock order of
 * docs/adr/0046 (a hold's pet before the application; a release's order before it).
 */
export abstract class ApplicationRepository {
  /**
   * Runs `work` in a transaction in which the key's submissions are taken one at a time from its
   * first statement: `add` counts the key's open applications with no other submission of the key
   * under way.
   */
  abstract submitting<T>(applicantKeyId: string, work: () => Promise<T>): Promise<T>;

  /**
   * Adds the application if the key holds fewer than `openLimit` open ones (ApplicationLimitError)
   * and none open for the pet with this email (DuplicateApplicationError), under any concurrency;
   * null, adding nothing, if `questionnaireVersion` is no longer the organisation's latest (the
   * caller reads the latest again: latestKnownQuestionnaire then knows it). The caller holds the
   * pet's lock (PetOwnership), so that it is not sold or deleted meanwhile.
   */
  abstract add(application: NewApplication, openLimit: number): Promise<Application | null>;

  abstract findById(id: ApplicationId): Promise<Application | null>;

  /** Ascending id, at most `limit` + 1. */
  abstract findPage(query: ApplicationPageQuery): Promise<Application[]>;

  /**
   * Changes the application to what `decide` makes of it as it is, under its lock (null: no
   * change; throws: nothing changes). `intent` says which locks come first. Null: no such row.
   */
  abstract change(
    id: ApplicationId,
    intent: 'plain' | 'hold' | 'release',
    precondition: VersionPrecondition | undefined,
    decide: (current: Application) => ApplicationChange | null,
  ): Promise<ApplicationChanged | null>;

  /** Ended applications not yet erased whose last change is at or before `before`, oldest first. */
  abstract findErasable(before: Date, limit: number): Promise<Application[]>;

  abstract organizationExists(organization: number): Promise<boolean>;

  /** The organisation's questionnaire versions written by its staff; `version` or the latest. */
  abstract questionnaire(organization: number, version?: number): Promise<Questionnaire | null>;

  /**
   * The organisation's latest questionnaire written by its staff as this instance last knew it:
   * perhaps a version behind, which `add` finds out. For submissions, which need not read it each
   * time; a reader is answered with `questionnaire`.
   */
  abstract latestKnownQuestionnaire(
    organization: number,
  ): Promise<Questionnaire | null> | Questionnaire | null;

  /** Saves the next version if the latest is `expected` (else null: another came first). */
  abstract saveQuestionnaire(
    organization: number,
    expected: number,
    questionnaire: Questionnaire,
  ): Promise<boolean>;
}
