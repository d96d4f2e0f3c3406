import { Clock } from '../../common/clock';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { PetStatus } from '../../pets/domain/pet-status';
import {
  ApplicationNotFoundError,
  InvalidApplicationError,
  PetNotAvailableError,
} from '../domain/application.errors';
import { DEFAULT_QUESTIONNAIRE } from '../domain/questionnaire';
import { EraseExpiredApplications } from './erase-expired-applications.use-case';
import { GetApplication } from './get-application.use-case';
import { SubmitApplication } from './submit-application.use-case';
import { InMemoryApplicationRepository } from '../../../test/fakes/in-memory-application.repository';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';
import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2028-06-01T00:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };
const who = (keyId: string, scopes: string[], organizationId: number | null): Requester => ({
  keyId,
  scopes,
  organizationId,
});
const applicant = who('10', ['applications:write'], null);
const staff = who('20', ['applications:manage'], 3);
const otherStaff = who('30', ['applications:manage'], 4);
const stranger = who('40', ['applications:write'], null);

async function repositoryWithOne() {
  const applications = new InMemoryApplicationRepository();
  const added = await applications.add({
    petId: 7,
    organizationId: 3,
    applicantKeyId: '10',
    applicant: {
      name: 'Ana Lima',
      email: 'ana@example.com',
      phone: null,
      address: { city: 'Bath', country: 'GB' },
    },
    answers: { household: 'Two adults', housing: 'own' },
    questionnaireVersion: 1,
  });
  return { applications, id: added!.id };
}

describe('GetApplication', () => {
  it("answers the staff's view to the staff, the applicant's to the applicant, a 404 to anyone else", async () => {
    const { applications, id } = await repositoryWithOne();
    const get = new GetApplication(applications);
    expect(await get.execute(staff, id)).toHaveProperty('notes', []);
    const own = await get.execute(applicant, id);
    expect(own).not.toHaveProperty('notes');
    expect(own).not.toHaveProperty('assigneeKeyId');
    expect(own).not.toHaveProperty('applicantKeyId');
    for (const other of [otherStaff, stranger]) {
      await expect(get.execute(other, id)).rejects.toThrow(ApplicationNotFoundError);
    }
    await expect(get.execute(who('10', ['pets:read'], null), id)).rejects.toThrow(
      InsufficientScopeError,
    );
  });
});

describe('SubmitApplication', () => {
  /** A pet of `organizationId` in `status`; `known`: the organisation this instance believes. */
  const petsOf = (
    organizationId: number,
    status: PetStatus,
    known: number | undefined,
  ): PetOwnership => ({
    ownerOf: async (petId) => ({ petId, organizationId, status, deleted: false }),
    knownOrganizationOf: () => known,
  });
  const pets = petsOf(3, 'available', undefined);
  /** The use case on `applications`, and how often it sent statements together. */
  const submitting = (applications: InMemoryApplicationRepository, owners: PetOwnership) => {
    const events = new InMemoryEvents();
    const together = jest.spyOn(events.transactions, 'together');
    const submit = new SubmitApplication(
      applications,
      owners,
      new InMemoryIdempotency(),
      events,
      events.transactions,
    );
    return { submit, together };
  };
  const body = (answers: object) => ({
    applicant: {
      name: 'Ana Lima',
      email: 'ana@example.com',
      address: { city: 'Bath', country: 'GB' },
    },
    answers,
  });

  it('answers a newer questionnaire than the one this instance knew: checked against it, kept with its version', async () => {
    const applications = new InMemoryApplicationRepository();
    const version2 = {
      version: 2,
      questions: [{ id: 'garden', text: 'A garden?', type: 'boolean' as const, required: true }],
    };
    await applications.saveQuestionnaire(3, 1, version2);
    // Another instance saved version 2; this one still knows the default.
    applications.known.set(3, null);
    const { submit } = submitting(applications, pets);
    const applier = { ...applicant, openApplicationLimit: 5 };
    const fitsDefault = body({ household: 'Two adults', housing: 'own' });
    await expect(submit.execute(applier, 7, fitsDefault)).rejects.toThrow(InvalidApplicationError);
    expect(applications.rows.size).toBe(0);
    applications.known.set(3, null);
    const { application } = await submit.execute(applier, 7, body({ garden: true }));
    expect(application).toMatchObject({ questionnaireVersion: 2, answers: { garden: true } });
    expect(await applications.latestKnownQuestionnaire(3)).toEqual(version2);
    expect(DEFAULT_QUESTIONNAIRE.version).toBe(1);
  });

  const applier = { ...applicant, openApplicationLimit: 5 };
  const fits = body({ household: 'Two adults', housing: 'own' });

  it("sends the application with the pet's lock when its organisation is known, and decides on the pet first", async () => {
    const applications = new InMemoryApplicationRepository();
    const sold = submitting(applications, petsOf(3, 'sold', 3));
    await expect(sold.submit.execute(applier, 7, fits)).rejects.toThrow(PetNotAvailableError);
    expect(sold.together).toHaveBeenCalledTimes(1);
    // What went with the lock is undone with the transaction.
    expect(applications.rows.size).toBe(0);
    const available = submitting(applications, petsOf(3, 'available', 3));
    const { application } = await available.submit.execute(applier, 7, fits);
    expect(available.together).toHaveBeenCalledTimes(1);
    expect([...applications.rows.values()]).toMatchObject([
      { id: application.id, organizationId: 3, petId: 7 },
    ]);
  });

  it('submits again without it when the pet is not of the organisation believed, stored under its own', async () => {
    const applications = new InMemoryApplicationRepository();
    const { submit, together } = submitting(applications, petsOf(4, 'available', 3));
    await submit.execute(applier, 7, fits);
    expect(together).toHaveBeenCalledTimes(1);
    expect([...applications.rows.values()]).toMatchObject([{ organizationId: 4, petId: 7 }]);
  });

  it('sends nothing ahead for answers that do not fit the questionnaire known: refused as before', async () => {
    const applications = new InMemoryApplicationRepository();
    const { submit, together } = submitting(applications, petsOf(3, 'available', 3));
    await expect(submit.execute(applier, 7, body({ housing: 'castle' }))).rejects.toThrow(
      InvalidApplicationError,
    );
    expect(together).not.toHaveBeenCalled();
  });
});

describe('EraseExpiredApplications', () => {
  const at = (days: number) => new Date(NOW - days * DAY_MS).toISOString();

  it('erases ended applications last changed the retention days ago or more; open ones never', async () => {
    const { applications, id } = await repositoryWithOne();
    const base = applications.rows.get(id)!;
    const rows = [
      { status: 'denied', updatedAt: at(731) },
      { status: 'withdrawn', updatedAt: at(730) },
      { status: 'closed', updatedAt: at(729.9) },
      { status: 'submitted', updatedAt: at(2000) },
      { status: 'adopted', updatedAt: at(2000) },
    ] as const;
    rows.forEach((row, i) => applications.rows.set(100 + i, { ...base, id: 100 + i, ...row }));
    applications.rows.delete(id);
    expect(await new EraseExpiredApplications(applications, clock).execute(730)).toBe(2);
    const erased = [...applications.rows.values()].map((a) => [a.status, a.applicant.name]);
    expect(erased).toEqual([
      ['denied', null],
      ['withdrawn', null],
      ['closed', 'Ana Lima'],
      ['submitted', 'Ana Lima'],
      ['adopted', 'Ana Lima'],
    ]);
    expect(applications.rows.get(100)!.answers).toEqual({ household: null, housing: 'own' });
    expect(await new EraseExpiredApplications(applications, clock).execute(730)).toBe(0);
  });
});
