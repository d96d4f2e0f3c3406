import {
  applicantOf,
  applicantProblems,
  Application,
  ApplicationStatus,
  DECISION_REASON,
  mayMove,
} from './application';
import {
  ApplicationChangeRefusedError,
  ApplicationTransitionError,
  InvalidApplicationError,
} from './application.errors';
import { answersOf, answersProblems, isText, Problem, Questionnaire } from './questionnaire';

/** A merge patch of an application, as sent (the HTTP edge checked the members' shapes). */
export interface ApplicationPatch {
  readonly status?: ApplicationStatus;
  readonly decisionReason?: string | null;
  readonly assigneeKeyId?: string | null;
  readonly applicant?: unknown;
  readonly answers?: unknown;
}

export type Audience = 'staff' | 'applicant';
const STAFF_MEMBERS = ['decisionReason', 'assigneeKeyId'] as const;
const APPLICANT_MEMBERS = ['applicant', 'answers'] as const;

/** What the change writes, and which event its readers get. */
export interface PatchOutcome {
  readonly status?: ApplicationStatus;
  readonly decisionReason?: string | null;
  readonly assigneeKeyId?: string | null;
  readonly applicant?: ReturnType<typeof applicantOf>;
  readonly answers?: Record<string, unknown>;
  /** Whether its readers are told (a change of status, assignee or decision). */
  readonly told: boolean;
}

/** The patch's problems that need no application: members of the other audience, bad text. */
export function patchProblems(patch: ApplicationPatch, audience: Audience): void {
  const foreign = (audience === 'staff' ? APPLICANT_MEMBERS : STAFF_MEMBERS).filter(
    (member) => patch[member] !== undefined,
  );
  if (foreign.length > 0) {
    throw new ApplicationChangeRefusedError(
      `${foreign.join(', ')} may be changed only by ${audience === 'staff' ? "the applicant's key" : "the staff of the pet's organisation"}.`,
    );
  }
  const problems: Problem[] = [];
  if (
    patch.decisionReason !== undefined &&
    patch.decisionReason !== null &&
    !isText(patch.decisionReason, DECISION_REASON.max)
  ) {
    problems.push({
      field: 'decisionReason',
      issue: 'range',
      message: `decisionReason must be text of 1 to ${DECISION_REASON.max} characters`,
    });
  }
  if (
    patch.assigneeKeyId !== undefined &&
    patch.assigneeKeyId !== null &&
    !/^[1-9][0-9]{0,15}$/.test(patch.assigneeKeyId)
  ) {
    problems.push({
      field: 'assigneeKeyId',
      issue: 'format',
      message: 'assigneeKeyId must be the id of an API key, or null',
    });
  }
  if (problems.length > 0) throw new InvalidApplicationError(problems);
}

/**
 * What a patch makes of the application as it is, for its audience: the moves the contract
 * allows (else 409 `invalid_transition`), `denied` with a reason, the applicant's own data only
 * while `submitted`, against the questionnaire version it answered. Null: nothing changes.
 */
export function applyPatch(
  current: Application,
  patch: ApplicationPatch,
  audience: Audience,
  questionnaire: Questionnaire,
): PatchOutcome | null {
  const moving = patch.status !== undefined && patch.status !== current.status;
  if (moving && !mayMove(audience, current.status, patch.status!)) {
    throw new ApplicationTransitionError(current.id, current.status, patch.status!);
  }
  if (patch.status === current.status && audience === 'applicant' && patch.status !== 'submitted') {
    // Saying the status it has is no move, and changes nothing.
  }
  const editing = patch.applicant !== undefined || patch.answers !== undefined;
  if (editing && current.status !== 'submitted') {
    throw new ApplicationTransitionError(
      current.id,
      current.status,
      'an edit of its applicant or answers',
    );
  }
  const problems: Problem[] = [
    ...(patch.applicant === undefined ? [] : applicantProblems(patch.applicant)),
    ...(patch.answers === undefined ? [] : answersProblems(questionnaire, patch.answers)),
  ];
  if (problems.length > 0) throw new InvalidApplicationError(problems);
  const decisionReason =
    patch.decisionReason === undefined ? current.decisionReason : patch.decisionReason;
  if (moving && patch.status === 'denied' && decisionReason === null) {
    throw new InvalidApplicationError([
      {
        field: 'decisionReason',
        issue: 'required',
        message: 'decisionReason is required to deny an application',
      },
    ]);
  }
  const outcome: PatchOutcome = {
    ...(moving ? { status: patch.status } : {}),
    ...(patch.decisionReason !== undefined && patch.decisionReason !== current.decisionReason
      ? { decisionReason: patch.decisionReason }
      : {}),
    ...(patch.assigneeKeyId !== undefined && patch.assigneeKeyId !== current.assigneeKeyId
      ? { assigneeKeyId: patch.assigneeKeyId }
      : {}),
    ...(patch.applicant === undefined
      ? {}
      : { applicant: applicantOf(patch.applicant as Record<string, unknown>) }),
    ...(patch.answers === undefined
      ? {}
      : { answers: answersOf(questionnaire, patch.answers as Record<string, unknown>) }),
    told: false,
  };
  const told = 'status' in outcome || 'decisionReason' in outcome || 'assigneeKeyId' in outcome;
  if (!told && !editing) return null;
  return { ...outcome, told };
}
