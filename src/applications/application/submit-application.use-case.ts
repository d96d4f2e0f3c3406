import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import {
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
import { answersOf, answersProblems, DEFAULT_QUESTIONNAIRE } from '../domain/questionnaire';
import { applicationEvent } from './application-events';
import { ApplicationRepository } from './application.repository';

/** A key applying, with the cap on open applications its plan gives it (its open orders' cap). */
export interface Applier extends Requester {
  readonly openApplicationLimit: number;
}

export interface Submission {
  readonly application: ApplicantView;
  readonly replayed: boolean;
}

@Injectable()
export class SubmitApplication {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly pets: PetOwnership,
    private readonly idempotency: Idempotency,
    private readonly events: EventRecorder,
  ) {}

  async execute(
    requester: Applier,
    petId: PetId,
    body: { applicant?: unknown; answers?: unknown },
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Submission> {
    checkScope(['applications:write'], requester.scopes);
    const submit = () =>
      this.applications.submitting(requester.keyId, async () => {
        // Locked until the application is stored: an order's end (or a deletion) that would close
        // it waits, then finds it open (docs/adr/0046: pets before applications).
        const pet = await this.pets.ownerOf(petId, { lock: true, deleted: true });
        if (!pet) throw new PetNotFoundError(petId);
        if (pet.deleted || pet.status === 'sold') {
          throw new PetNotAvailableError(petId, `it is ${pet.deleted ? 'deleted' : pet.status}`);
        }
        // The version the applicant answers: its organisation's latest, kept with the answers. The
        // one this instance knows may be a version behind: answers are refused only against the
        // latest, read then, and add refuses a version a newer one replaced.
        for (let fresh = false; ; fresh = true) {
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
            {
              petId,
              organizationId: pet.organizationId,
              applicantKeyId: requester.keyId,
              applicant: applicantOf(body.applicant as Record<string, unknown>),
              answers: answersOf(questionnaire, body.answers as Record<string, unknown>),
              questionnaireVersion: questionnaire.version,
            },
            requester.openApplicationLimit,
          );
          if (!added) continue;
          await this.events.record([applicationEvent('application.submitted', added)]);
          return applicantView(added);
        }
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
}
