import { Clock } from '../../common/clock';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import { ApplicationNotFoundError } from '../domain/application.errors';
import { EraseExpiredApplications } from './erase-expired-applications.use-case';
import { GetApplication } from './get-application.use-case';
import { InMemoryApplicationRepository } from '../../../test/fakes/in-memory-application.repository';

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
  return { applications, id: added.id };
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
