import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { Transactions } from '../../common/transactions';
import { checkScope } from '../../common/scopes';
import { PetOwner, PetOwnership } from '../../pets/application/ports/pet-ownership';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import {
  Application,
  applicantOf,
  applicantProblems,
  applicantView,
  ApplicantView,
  PetId,
} from '../domain/application';
import {
  InvalidApplicationError,
  PetNotAvailableError,
  PetNotFoundError,
} from '../domain/application.errors';
import {
  answersOf,
  answersProblems,
  DEFAULT_QUESTIONNAIRE,
  Questionnaire,
} from '../domain/questionnaire';
import { applicationEvent } from './application-events';
import { ApplicationRepository, NewApplication } from './application.repository';

/** A key applying, with the cap on open applications its plan gives it (its open orders' cap). */
export interface Applier extends Requester {
  readonly openApplicationLimit: number;
}

export interface Submission {
  readonly application: ApplicantView;
  readonly replayed: boolean;
}

/** The submission's pet, read under its lock (docs/adr/0046: pets before applications). */
const LOCKED = { lock: true, deleted: true } as const;

/** What a submission was sent with its pet's lock, on the organisation known for the pet. */
interface SentAhead {
  readonly organizationId: number;
  readonly pet: PromiseSettledResult<PetOwner | null>;
  readonly added: PromiseSettledResult<Application | null>;
}

/**
 * The pet's organisation was not the one this instance remembered for it. A pet never changes
 * organisation, so the memory was stale. What was sent with the pet's lock is undone with the
 * transaction, and the submission runs again without it.
 */
class OrganizationNotAsKnown extends Error {}

type Body = { applicant?: unknown; answers?: unknown };

@Injectable()
export class SubmitApplication {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly pets: PetOwnership,
    private readonly idempotency: Idempotency,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(
    requester: Applier,
    petId: PetId,
    body: Body,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Submission> {
    checkScope(['applications:write'], requester.scopes);
    const submit = () =>
      this.submit(requester, petId, body, true).catch((error: unknown) => {
        if (!(error instanceof OrganizationNotAsKnown)) throw error;
        return this.submit(requester, petId, body, false);
      });
    if (!idempotencyKey) return { application: await submit(), replayed: false };
    const { value, replayed } = await this.idempotency.once(
      {
        ...idempotencyKey,
        fingerprint: fingerprintOf(['submitApplication', petId, JSON.stringify(body)]),
      },
      submit,
    );
    return { application: value, replayed };
  }

  private submit(
    requester: Applier,
    petId: PetId,
    body: Body,
    ahead: boolean,
  ): Promise<ApplicantView> {
    return this.applications.submitting(requester.keyId, async () => {
      const sent = ahead ? await this.sendAhead(requester, petId, body) : undefined;
      // Locked until the application is stored: an order's end (or a deletion) that would close
      // it waits, then finds it open (docs/adr/0046: pets before applications).
      const pet = sent ? settled(sent.pet) : await this.pets.ownerOf(petId, LOCKED);
      if (!pet) throw new PetNotFoundError(petId);
      if (pet.deleted || pet.status === 'sold') {
        throw new PetNotAvailableError(petId, `it is ${pet.deleted ? 'deleted' : pet.status}`);
      }
      if (sent && pet.organizationId !== sent.organizationId) throw new OrganizationNotAsKnown();
      const added =
        (sent && settled(sent.added)) ?? (await this.add(requester, pet, body, sent !== undefined));
      await this.events.record([applicationEvent('application.submitted', added)]);
      return applicantView(added);
    });
  }

  /**
   * For a pet whose organisation this instance knows, and answers that fit the questionnaire it
   * knows for it: the application sent with the pet's lock, in its round trip, instead of after
   * its answer. Whatever the pet's answer turns out to be, it decides as it would have first.
   */
  private async sendAhead(
    requester: Applier,
    petId: PetId,
    body: Body,
  ): Promise<SentAhead | undefined> {
    const organizationId = this.pets.knownOrganizationOf(petId);
    if (organizationId === undefined) return undefined;
    const questionnaire =
      (await this.applications.latestKnownQuestionnaire(organizationId)) ?? DEFAULT_QUESTIONNAIRE;
    if (applicantProblems(body.applicant).length > 0) return undefined;
    if (answersProblems(questionnaire, body.answers).length > 0) return undefined;
    const [pet, added] = await this.transactions.together(() =>
      Promise.allSettled([
        this.pets.ownerOf(petId, LOCKED),
        this.applications.add(
          newApplication(requester, petId, organizationId, questionnaire, body),
          requester.openApplicationLimit,
        ),
      ]),
    );
    return { organizationId, pet, added };
  }

  /**
   * The application, checked against the organisation's latest questionnaire: the one this
   * instance knows first (it may be a version behind), unless `fresh`. Answers are refused only
   * against the latest, read then, and add refuses a version a newer one replaced.
   */
  private async add(
    requester: Applier,
    pet: PetOwner,
    body: Body,
    fresh: boolean,
  ): Promise<Application> {
    for (; ; fresh = true) {
      const questionnaire =
        (await (fresh
          ? this.applications.questionnaire(pet.organizationId)
          : this.applications.latestKnownQuestionnaire(pet.organizationId))) ??
        DEFAULT_QUESTIONNAIRE;
      const answerProblems = answersProblems(questionnaire, body.answers);
      if (answerProblems.length > 0 && !fresh) continue;
      const problems = [...applicantProblems(body.applicant), ...answerProblems];
      if (problems.length > 0) throw new InvalidApplicationError(problems);
      const added = await this.applications.add(
        newApplication(requester, pet.petId, pet.organizationId, questionnaire, body),
        requester.openApplicationLimit,
      );
      if (added) return added;
    }
  }
}

/** The answer of a call sent with others, or its failure thrown. */
function settled<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

function newApplication(
  requester: Applier,
  petId: PetId,
  organizationId: number,
  questionnaire: Questionnaire,
  body: Body,
): NewApplication {
  return {
    petId,
    organizationId,
    applicantKeyId: requester.keyId,
    applicant: applicantOf(body.applicant as Record<string, unknown>),
    answers: answersOf(questionnaire, body.answers as Record<string, unknown>),
    questionnaireVersion: questionnaire.version,
  };
}
