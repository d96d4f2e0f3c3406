import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import {
  InvalidOrganizationError,
  OrganizationNameTakenError,
  OrganizationNotFoundError,
  OrganizationVersionMismatchError,
} from '../domain/organization.errors';
import { CreateOrganization } from './create-organization.use-case';
import { GetOrganization } from './get-organization.use-case';
import { ListOrganizations } from './list-organizations.use-case';
import { UpdateOrganization } from './update-organization.use-case';
import { InMemoryOrganizationRepository } from '../../../test/fakes/in-memory-organization.repository';

const reader: Requester = { keyId: '1', scopes: ['pets:read'], organizationId: null };
const staffOf = (organizationId: number | null, scopes = ['organization:manage']): Requester => ({
  keyId: '2',
  scopes,
  organizationId,
});

describe('the organisations use cases', () => {
  let organizations: InMemoryOrganizationRepository;
  let create: CreateOrganization;

  beforeEach(async () => {
    organizations = new InMemoryOrganizationRepository();
    create = new CreateOrganization(organizations, new InMemoryIdempotency());
    await create.execute({
      name: 'Harbour Rescue',
      email: 'adopt@harbour.example',
      address: { city: 'Bristol', country: 'GB' },
      location: { lat: 51.4545, lon: -2.5879 },
    });
    await create.execute({
      name: 'Moor Shelter',
      email: 'hello@moor.example',
      address: { city: 'Exeter', country: 'GB' },
      location: { lat: 50.7184, lon: -3.5339 },
    });
  });

  describe('CreateOrganization', () => {
    it('refuses a name another organisation has, whatever its case', async () => {
      await expect(
        create.execute({
          name: 'harbour rescue',
          email: 'x@y.example',
          address: { city: 'Bath', country: 'GB' },
        }),
      ).rejects.toThrow(OrganizationNameTakenError);
      expect(organizations.rows).toHaveLength(3);
    });
  });

  describe('ListOrganizations and GetOrganization', () => {
    it('lists every organisation to a key that reads pets, in ascending id, by name or near a point', async () => {
      const list = new ListOrganizations(organizations);
      expect((await list.execute(reader, {})).organizations.map((o) => o.id)).toEqual([1, 2, 3]);
      expect((await list.execute(reader, { name: 'MOOR' })).organizations.map((o) => o.id)).toEqual(
        [3],
      );
      const near = await list.execute(reader, {
        near: { point: { lat: 51.45, lon: -2.6 }, radiusKm: 50 },
      });
      expect(near.organizations).toEqual([expect.objectContaining({ id: 2, distanceKm: 1 })]);
      expect(await list.execute(reader, { limit: 2 })).toMatchObject({ nextAfter: 2 });
      await expect(list.execute(staffOf(2), {})).rejects.toThrow(InsufficientScopeError);
    });

    it('gets one, or says there is none', async () => {
      const get = new GetOrganization(organizations);
      expect(await get.execute(reader, 3)).toMatchObject({ name: 'Moor Shelter' });
      await expect(get.execute(reader, 9)).rejects.toThrow(OrganizationNotFoundError);
    });
  });

  describe('UpdateOrganization', () => {
    let update: UpdateOrganization;
    beforeEach(() => (update = new UpdateOrganization(organizations)));

    it("changes its own organisation's members for its staff, and counts a version", async () => {
      const changed = await update.execute(staffOf(2), 2, {
        phone: '+44 117 496 0000',
        address: { line1: '12 Harbour Road' },
      });
      expect(changed).toMatchObject({
        id: 2,
        version: 2,
        phone: '+44 117 496 0000',
        address: { line1: '12 Harbour Road', city: 'Bristol', country: 'GB' },
      });
    });

    it('needs organization:manage, checked before anything else', async () => {
      await expect(update.execute(staffOf(2, ['pets:manage']), 2, { name: 'X' })).rejects.toThrow(
        InsufficientScopeError,
      );
      await expect(update.execute(staffOf(2, ['pets:read']), 99, { name: null })).rejects.toThrow(
        InsufficientScopeError,
      );
    });

    it("answers another organisation's staff, and a key without one, as if it did not exist, and changes nothing", async () => {
      for (const requester of [staffOf(3), staffOf(null)]) {
        await expect(update.execute(requester, 2, { name: 'Taken Over' })).rejects.toThrow(
          OrganizationNotFoundError,
        );
        await expect(
          update.execute(
            requester,
            2,
            { name: 'Taken Over' },
            { anyVersion: false, versions: [7] },
          ),
        ).rejects.toThrow(OrganizationNotFoundError);
      }
      expect(organizations.rows[1]).toMatchObject({ name: 'Harbour Rescue', version: 1 });
    });

    it('refuses an invalid member before anything is read, a stale version, and a taken name', async () => {
      await expect(update.execute(staffOf(9), 9, { email: null })).rejects.toThrow(
        InvalidOrganizationError,
      );
      await expect(
        update.execute(staffOf(2), 2, { name: 'Y' }, { anyVersion: false, versions: [2] }),
      ).rejects.toThrow(OrganizationVersionMismatchError);
      await expect(update.execute(staffOf(2), 2, { name: 'MOOR SHELTER' })).rejects.toThrow(
        OrganizationNameTakenError,
      );
      expect(organizations.rows[1]).toMatchObject({ name: 'Harbour Rescue', version: 1 });
    });

    it('answers a patch of its own values with the organisation as it is, at the same version', async () => {
      expect(await update.execute(staffOf(2), 2, { name: 'Harbour Rescue' })).toMatchObject({
        version: 1,
      });
    });
  });
});
