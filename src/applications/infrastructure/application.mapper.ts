import {
  Applicant,
  Application,
  APPLICATION_STATUSES,
  ApplicationStatus,
  ClosedReason,
  Note,
} from '../domain/application';

/** A row as the statements select it: bigints as text, jsonb parsed. */
export interface ApplicationRow {
  id: string;
  petId: string;
  organizationId: string;
  applicantKeyId: string;
  status: string;
  applicant: Applicant;
  answers: Record<string, unknown>;
  questionnaireVersion: number;
  decisionReason: string | null;
  orderId: string | null;
  closedReason: string | null;
  assigneeKeyId: string | null;
  notes: (Omit<Note, 'authorKeyId'> & { authorKeyId: string })[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const ApplicationMapper = {
  toDomain(row: ApplicationRow): Application {
    if (!(APPLICATION_STATUSES as readonly string[]).includes(row.status)) {
      throw new Error(`Stored application ${row.id} has an unknown status.`);
    }
    const { name, email, phone, address } = row.applicant;
    return {
      id: Number(row.id),
      petId: Number(row.petId),
      organizationId: Number(row.organizationId),
      status: row.status as ApplicationStatus,
      applicant: {
        name,
        email,
        phone: phone ?? null,
        address: address
          ? {
              city: address.city,
              country: address.country,
              line1: address.line1 ?? null,
              region: address.region ?? null,
              postalCode: address.postalCode ?? null,
            }
          : null,
      },
      answers: row.answers,
      questionnaireVersion: row.questionnaireVersion,
      decisionReason: row.decisionReason,
      orderId: row.orderId === null ? null : Number(row.orderId),
      closedReason: row.closedReason as ClosedReason | null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      version: row.version,
      applicantKeyId: String(row.applicantKeyId),
      assigneeKeyId: row.assigneeKeyId === null ? null : String(row.assigneeKeyId),
      notes: row.notes.map(({ id, text, authorKeyId, createdAt }) => ({
        id,
        text,
        authorKeyId: String(authorKeyId),
        createdAt,
      })),
    };
  },
};
