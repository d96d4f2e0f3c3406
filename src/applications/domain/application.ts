import { isCountryCode } from '../../common/countries';
import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { isText, Problem } from './questionnaire';

export type ApplicationId = number;
/** The id of the pet an application is for (the pets feature's, never imported). */
export type PetId = number;

export const APPLICATION_STATUSES = [
  'submitted',
  'under_review',
  'approved',
  'denied',
  'adopted',
  'withdrawn',
  'closed',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Applications still waiting for their end: what `duplicate_application` and the cap count. */
export const OPEN_STATUSES: readonly ApplicationStatus[] = [
  'submitted',
  'under_review',
  'approved',
];
export const CLOSED_REASONS = ['pet_adopted', 'pet_removed', 'hold_lapsed', 'erased'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

export const APPLICANT_TEXT = {
  name: { min: 1, max: 100 },
  email: { min: 3, max: 254 },
  phone: { min: 3, max: 30 },
  line1: { min: 1, max: 200 },
  city: { min: 1, max: 100 },
  region: { min: 1, max: 100 },
  postalCode: { min: 1, max: 20 },
} as const;
export const DECISION_REASON = { min: 1, max: 2000 } as const;
export const NOTE_TEXT = { min: 1, max: 5000 } as const;
/** At most this many notes on one application: a note is appended to one row. */
export const MAX_NOTES = 200;

export interface Address {
  readonly city: string | null;
  readonly country: string | null;
  readonly line1?: string | null;
  readonly region?: string | null;
  readonly postalCode?: string | null;
}

/** The person applying: their personal data, null everywhere once erased. */
export interface Applicant {
  readonly name: string | null;
  readonly email: string | null;
  readonly phone?: string | null;
  readonly address: Address | null;
}

export interface Note {
  readonly id: number;
  readonly text: string;
  readonly authorKeyId: string;
  readonly createdAt: string;
}

/** An application as kept, with what only staff read and whose it is. */
export interface Application {
  readonly id: ApplicationId;
  readonly petId: PetId;
  readonly organizationId: number;
  readonly status: ApplicationStatus;
  readonly applicant: Applicant;
  readonly answers: Readonly<Record<string, unknown>>;
  readonly questionnaireVersion: number;
  readonly decisionReason: string | null;
  readonly orderId: number | null;
  readonly closedReason: ClosedReason | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
  /** The key that submitted it: the applicant's. */
  readonly applicantKeyId: string;
  readonly assigneeKeyId: string | null;
  readonly notes: readonly Note[];
}

/** What the applicant's key reads, and every event carries: never notes nor assignee. */
export type ApplicantView = Omit<Application, 'applicantKeyId' | 'assigneeKeyId' | 'notes'>;
/** What the staff of the pet's organisation read. */
export type StaffView = Omit<Application, 'applicantKeyId'>;

export function applicantView(a: Application): ApplicantView {
  return {
    id: a.id,
    petId: a.petId,
    organizationId: a.organizationId,
    status: a.status,
    applicant: a.applicant,
    answers: a.answers,
    questionnaireVersion: a.questionnaireVersion,
    decisionReason: a.decisionReason,
    orderId: a.orderId,
    closedReason: a.closedReason,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    version: a.version,
  };
}

export function staffView(a: Application): StaffView {
  return { ...applicantView(a), assigneeKeyId: a.assigneeKeyId, notes: a.notes };
}

/** The staff of an application's organisation: `applications:manage`, its own organisation. */
export function isStaffFor(requester: Requester, application: Pick<Application, 'organizationId'>) {
  return (
    requester.scopes.includes('applications:manage') &&
    isStaffOf(requester, application.organizationId)
  );
}

/** The applicant's key: the one that submitted it, still holding `applications:write`. */
export function isApplicantOf(
  requester: Requester,
  application: Pick<Application, 'applicantKeyId'>,
) {
  return (
    requester.scopes.includes('applications:write') &&
    requester.keyId === application.applicantKeyId
  );
}

/**
 * What a requester reads of an application: the staff's view, the applicant's, or nothing (a 404:
 * personal data is shown to these two audiences only, and its existence to no one else).
 */
export function viewFor(requester: Requester, a: Application): StaffView | ApplicantView | null {
  if (isStaffFor(requester, a)) return staffView(a);
  if (isApplicantOf(requester, a)) return applicantView(a);
  return null;
}

export const isFinal = (status: ApplicationStatus) => !OPEN_STATUSES.includes(status);

/** Moves staff make. */
const STAFF_MOVES: Partial<Record<ApplicationStatus, readonly ApplicationStatus[]>> = {
  submitted: ['under_review', 'approved', 'denied'],
  under_review: ['approved', 'denied'],
};
/** Moves the applicant's key makes. */
const APPLICANT_MOVES: Partial<Record<ApplicationStatus, readonly ApplicationStatus[]>> = {
  submitted: ['withdrawn'],
  under_review: ['withdrawn'],
  approved: ['withdrawn'],
};
export type StaffTarget = 'under_review' | 'approved' | 'denied';
export const STAFF_TARGETS: readonly StaffTarget[] = ['under_review', 'approved', 'denied'];

export function mayMove(
  audience: 'staff' | 'applicant',
  from: ApplicationStatus,
  to: ApplicationStatus,
) {
  return ((audience === 'staff' ? STAFF_MOVES : APPLICANT_MOVES)[from] ?? []).includes(to);
}

/** An applicant as sent: its problems, each at `applicant.<member>`. */
export function applicantProblems(value: unknown): Problem[] {
  const at = (m: string) => `applicant.${m}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ field: 'applicant', issue: 'type', message: 'applicant must be an object' }];
  }
  const v = value as Record<string, unknown>;
  const problems: Problem[] = [];
  const text = (
    path: string,
    given: unknown,
    bound: { min: number; max: number },
    optional: boolean,
  ) => {
    if (given === undefined || (optional && given === null)) {
      if (!optional)
        problems.push({ field: path, issue: 'required', message: `${path} is required` });
      return;
    }
    if (!isText(given, bound.max, bound.min)) {
      problems.push({
        field: path,
        issue: 'range',
        message: `${path} must be text of ${bound.min} to ${bound.max} characters`,
      });
    }
  };
  const unknown = (object: Record<string, unknown>, known: string[], prefix: string) => {
    for (const m of Object.keys(object).filter((k) => !known.includes(k))) {
      problems.push({
        field: `${prefix}.${m}`,
        issue: 'unknown_field',
        message: `${prefix}.${m} is not a member of ${prefix}`,
      });
    }
  };
  unknown(v, ['name', 'email', 'phone', 'address'], 'applicant');
  text(at('name'), v.name, APPLICANT_TEXT.name, false);
  text(at('email'), v.email, APPLICANT_TEXT.email, false);
  if (typeof v.email === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email)) {
    problems.push({
      field: at('email'),
      issue: 'format',
      message: 'applicant.email must be an address such as ana@example.com',
    });
  }
  text(at('phone'), v.phone, APPLICANT_TEXT.phone, true);
  if (typeof v.phone === 'string' && !/^\+?[0-9][0-9 ().\-/]*[0-9]$/.test(v.phone)) {
    problems.push({
      field: at('phone'),
      issue: 'format',
      message: 'applicant.phone must be digits, with an optional leading +',
    });
  }
  const address = v.address;
  if (typeof address !== 'object' || address === null || Array.isArray(address)) {
    problems.push({
      field: at('address'),
      issue: 'required',
      message: 'applicant.address must be an object with city and country',
    });
    return problems;
  }
  const a = address as Record<string, unknown>;
  unknown(a, ['city', 'country', 'line1', 'region', 'postalCode'], 'applicant.address');
  text('applicant.address.city', a.city, APPLICANT_TEXT.city, false);
  if (!isCountryCode(a.country)) {
    problems.push({
      field: 'applicant.address.country',
      issue: 'enum',
      message:
        'applicant.address.country must be an ISO 3166-1 alpha-2 code in capitals, such as DE',
    });
  }
  text('applicant.address.line1', a.line1, APPLICANT_TEXT.line1, true);
  text('applicant.address.region', a.region, APPLICANT_TEXT.region, true);
  text('applicant.address.postalCode', a.postalCode, APPLICANT_TEXT.postalCode, true);
  return problems;
}

/** The applicant as kept: every member present (optional ones null), white space trimmed. */
export function applicantOf(value: Record<string, unknown>): Applicant {
  const a = value.address as Record<string, unknown>;
  const opt = (x: unknown) => (typeof x === 'string' ? x.trim() : null);
  return {
    name: (value.name as string).trim(),
    email: (value.email as string).trim(),
    phone: opt(value.phone),
    address: {
      city: (a.city as string).trim(),
      country: a.country as string,
      line1: opt(a.line1),
      region: opt(a.region),
      postalCode: opt(a.postalCode),
    },
  };
}

/** The applicant once erased: every member null, for good. */
export const ERASED_APPLICANT: Applicant = { name: null, email: null, phone: null, address: null };

/** The answers once erased: every text answer null; the others (a choice, a number) stay. */
export function erasedAnswers(
  answers: Readonly<Record<string, unknown>>,
  textIds: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).map(([id, answer]) => [id, textIds.includes(id) ? null : answer]),
  );
}
