import {
  OrganizationPageQuery,
  OrganizationRepository,
} from '../../src/organizations/application/organization.repository';
import { uniqueNameKey } from '../../src/common/unique-name';
import {
  Organization,
  OrganizationId,
  OrganizationNearby,
  OrganizationProfile,
} from '../../src/organizations/domain/organization';
import {
  OrganizationNameTakenError,
  OrganizationVersionMismatchError,
} from '../../src/organizations/domain/organization.errors';
import { admits, VersionPrecondition } from '../../src/common/versions';

/** Great-circle distance in km (haversine), as the database's cube distance gives it. */
function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Organisations in an array, for unit tests of the use cases; organisation 1 exists, unnamed details. */
export class InMemoryOrganizationRepository extends OrganizationRepository {
  readonly rows: Organization[] = [
    {
      id: 1,
      name: 'The Pet Store',
      email: null,
      phone: null,
      website: null,
      address: null,
      location: null,
      adoptionPolicy: null,
      version: 1,
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-23T12:00:00.000Z',
    },
  ];
  now = '2026-11-24T09:00:00.000Z';

  async add(profile: OrganizationProfile): Promise<Organization> {
    this.checkName(profile.name);
    const organization = {
      ...profile,
      id: this.rows[this.rows.length - 1].id + 1,
      version: 1,
      createdAt: this.now,
      updatedAt: this.now,
    };
    this.rows.push(organization);
    return organization;
  }

  async findById(id: OrganizationId): Promise<Organization | null> {
    return this.rows.find((row) => row.id === id) ?? null;
  }

  async findPage({
    name,
    near,
    after = 0,
    limit,
  }: OrganizationPageQuery): Promise<(Organization | OrganizationNearby)[]> {
    return this.rows
      .filter((row) => row.id > after)
      .filter((row) => !name || row.name.toLowerCase().includes(name.toLowerCase()))
      .flatMap((row) => {
        if (!near) return [row];
        if (!row.location) return [];
        const km = distanceKm(row.location, near.point);
        return km <= near.radiusKm ? [{ ...row, distanceKm: Math.round(km * 10) / 10 }] : [];
      })
      .slice(0, limit);
  }

  async update(
    id: OrganizationId,
    precondition: VersionPrecondition | undefined,
    change: (current: Organization) => OrganizationProfile | null,
  ): Promise<Organization | null> {
    const index = this.rows.findIndex((row) => row.id === id);
    if (index < 0) return null;
    const current = this.rows[index];
    if (!admits(precondition, current.version)) {
      throw new OrganizationVersionMismatchError(id, current.version);
    }
    const next = change(current);
    if (!next) return current;
    this.checkName(next.name, id);
    this.rows[index] = { ...current, ...next, version: current.version + 1, updatedAt: this.now };
    return this.rows[index];
  }

  private checkName(name: string, except?: OrganizationId): void {
    if (
      this.rows.some((row) => row.id !== except && uniqueNameKey(row.name) === uniqueNameKey(name))
    ) {
      throw new OrganizationNameTakenError(name);
    }
  }
}
