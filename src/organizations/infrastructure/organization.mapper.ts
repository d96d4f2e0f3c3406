import { Organization, OrganizationProfile } from '../domain/organization';

/** A row as the statements select it: ids and instants as text, the address flat. */
export interface OrganizationRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  line1: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  lat: number | null;
  lon: number | null;
  adoptionPolicy: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Present when a `near` search selected it. */
  distanceKm?: number;
}

export const OrganizationMapper = {
  toDomain(row: OrganizationRow): Organization {
    return {
      id: Number(row.id),
      name: row.name,
      email: row.email,
      phone: row.phone,
      website: row.website,
      address:
        row.city === null || row.country === null
          ? null
          : {
              line1: row.line1,
              city: row.city,
              region: row.region,
              postalCode: row.postalCode,
              country: row.country,
            },
      location: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
      adoptionPolicy: row.adoptionPolicy,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  },

  /** The profile as the statements take it, from $2 on (after the id or the name key). */
  toValues(profile: OrganizationProfile): unknown[] {
    const { address, location } = profile;
    return [
      profile.name,
      profile.email,
      profile.phone,
      profile.website,
      address?.line1 ?? null,
      address?.city ?? null,
      address?.region ?? null,
      address?.postalCode ?? null,
      address?.country ?? null,
      location?.lat ?? null,
      location?.lon ?? null,
      profile.adoptionPolicy,
    ];
  },
};
