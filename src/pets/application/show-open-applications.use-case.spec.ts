import { UNKNOWN_PROFILE } from '../domain/pet-profile-shape';
import { Requester } from '../../common/requester';
import { Pet } from '../domain/pet';
import { ShowOpenApplications } from './show-open-applications.use-case';
import { InMemoryOpenApplications } from '../../../test/fakes/in-memory-open-applications';

const pet = (id: number, organizationId: number): Pet => ({
  id,
  name: `Pet ${id}`,
  categoryId: 1,
  status: 'available',
  organizationId,
  externalId: null,
  ...UNKNOWN_PROFILE,
  photos: [],
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const requester = (scopes: string[], organizationId: number | null): Requester => ({
  keyId: '9',
  scopes,
  organizationId,
});

describe('ShowOpenApplications', () => {
  const page = [pet(1, 2), pet(2, 3), pet(3, 2)];

  it("counts the reviewing staff's pets in one question for the page, zero for none", async () => {
    const open = new InMemoryOpenApplications();
    open.counts.set(1, 2);
    const answers = await new ShowOpenApplications(open).execute(
      requester(['pets:read', 'applications:manage'], 2),
      page,
    );
    expect(answers.map((a) => a.openApplications)).toEqual([2, undefined, 0]);
    expect('openApplications' in answers[1]).toBe(false);
    expect(open.asked).toEqual([[1, 3]]);
  });

  it('leaves the member absent, asking nothing, to adopters and to staff without applications:manage', async () => {
    const open = new InMemoryOpenApplications();
    for (const who of [
      requester(['pets:read', 'applications:write'], null),
      requester(['pets:read', 'pets:manage'], 2),
      requester(['pets:read', 'applications:manage'], 4),
    ]) {
      const answers = await new ShowOpenApplications(open).execute(who, page);
      expect(answers.every((a) => !('openApplications' in a))).toBe(true);
    }
    expect(open.asked).toEqual([]);
  });
});
