import { GeoPoint, isLatitude, isLongitude } from '../../common/geo';
import { TextBounds, textProblem } from '../../common/text';
import { mixedScriptProblem } from '../../common/unique-name';
import { isCountryCode } from '../../common/countries';
import { InvalidOrganizationError } from './organization.errors';

/** An organisation's id: assigned by the database, within the integers JSON clients carry. */
export type OrganizationId = number;
export const MAX_ORGANIZATION_ID: OrganizationId = Number.MAX_SAFE_INTEGER;

/** Bounds of each text member, in Unicode code points. */
export const ORGANIZATION_TEXT = {
  name: { min: 1, max: 100 },
  email: { min: 3, max: 254 },
  phone: { min: 3, max: 30 },
  website: { min: 1, max: 2048 },
  line1: { min: 1, max: 200 },
  city: { min: 1, max: 100 },
  region: { min: 1, max: 100 },
  postalCode: { min: 1, max: 20 },
  adoptionPolicy: { min: 1, max: 5000, multiline: true },
} as const satisfies Record<string, TextBounds>;

export interface Address {
  readonly line1: string | null;
  readonly city: string;
  readonly region: string | null;
  readonly postalCode: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
}

/** What an organisation says of itself: every member a client sets. */
export interface OrganizationProfile {
  readonly name: string;
  /**
   * Required of every organisation created; null only for organisation 1 until its staff give it
   * (it was created by the upgrade to organisations, which knew no contact details).
   */
  readonly email: string | null;
  readonly phone: string | null;
  /** An absolute https URL, as parsed. */
  readonly website: string | null;
  /** Required of every organisation created; null only for organisation 1 until given. */
  readonly address: Address | null;
  /** Where its animals can be met: what a `near` search measures from. */
  readonly location: GeoPoint | null;
  readonly adoptionPolicy: string | null;
}

export interface Organization extends OrganizationProfile {
  readonly id: OrganizationId;
  /** +1 on every change; a client's If-Match names the version it read. */
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Whether a `near` search can find the organisation's animals: it measures from the location, so
 * an organisation without one is never near anywhere. Said in every answer, so that leaving the
 * location out at creation is seen, not discovered by a search that silently misses it.
 */
export const isFindableNearby = (organization: Pick<OrganizationProfile, 'location'>): boolean =>
  organization.location !== null;

/** An organisation found by a `near` search, with how far it is from the point asked about. */
export interface OrganizationNearby extends Organization {
  readonly distanceKm: number;
}

/** What an administrator creates an organisation with. */
export interface NewOrganizationInput {
  name: string;
  email: string;
  phone?: string | null;
  website?: string | null;
  address: Partial<Address>;
  location?: Partial<GeoPoint> | null;
  adoptionPolicy?: string | null;
}

/**
 * A change (RFC 7396): absent members are kept; `null` clears an optional one and is refused for
 * a required one; `address` and `location` merge member by member.
 */
export interface OrganizationPatch {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  website?: string | null;
  address?: Partial<Record<keyof Address, string | null>> | null;
  location?: Partial<Record<keyof GeoPoint, number | null>> | null;
  adoptionPolicy?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ().\-/]*[0-9]$/;

const invalid = (message: string) => new InvalidOrganizationError(message);

function checkText(field: string, value: string, bounds: TextBounds): void {
  const problem = textProblem(value, bounds);
  if (problem) throw invalid(`${field} ${problem}.`);
}

/** A unique name: the text rule, and no word mixing look-alike scripts (common/unique-name.ts). */
function checkName(name: string): void {
  checkText('name', name, ORGANIZATION_TEXT.name);
  const problem = mixedScriptProblem(name);
  if (problem) throw invalid(`name ${problem}.`);
}

function checkEmail(email: string): void {
  checkText('email', email, ORGANIZATION_TEXT.email);
  if (!EMAIL.test(email)) throw invalid('email must be an address such as adopt@shelter.example.');
}

function checkPhone(phone: string): void {
  checkText('phone', phone, ORGANIZATION_TEXT.phone);
  if (!PHONE.test(phone)) {
    throw invalid(
      'phone must be digits, with an optional leading + and spaces, dots, dashes, slashes or parentheses between them.',
    );
  }
}

/** The website as parsed (its `href`): an absolute https URL without credentials. */
function websiteOf(website: string): string {
  checkText('website', website, ORGANIZATION_TEXT.website);
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    throw invalid('website must be an absolute https URL, such as https://shelter.example/.');
  }
  if (url.protocol !== 'https:') throw invalid('website must be an https URL.');
  if (url.username || url.password) throw invalid('website must not carry credentials.');
  if (url.href.length > ORGANIZATION_TEXT.website.max) {
    throw invalid(`website must be at most ${ORGANIZATION_TEXT.website.max} characters long.`);
  }
  return url.href;
}

const LATITUDE = 'location.lat must be a number from -90 to 90.';
const LONGITUDE = 'location.lon must be a number from -180 to 180.';

function checkCountry(country: string): void {
  if (!isCountryCode(country)) {
    throw invalid('address.country must be an ISO 3166-1 alpha-2 code in capitals, such as DE.');
  }
}

function addressOf(address: Partial<Record<keyof Address, string | null>>): Address {
  const { line1 = null, city, region = null, postalCode = null, country } = address;
  if (typeof city !== 'string') throw invalid('address.city is required.');
  if (typeof country !== 'string') throw invalid('address.country is required.');
  checkText('address.city', city, ORGANIZATION_TEXT.city);
  checkCountry(country);
  if (line1 !== null) checkText('address.line1', line1, ORGANIZATION_TEXT.line1);
  if (region !== null) checkText('address.region', region, ORGANIZATION_TEXT.region);
  if (postalCode !== null) {
    checkText('address.postalCode', postalCode, ORGANIZATION_TEXT.postalCode);
  }
  return { line1, city, region, postalCode, country };
}

function locationOf(location: Partial<Record<keyof GeoPoint, number | null>>): GeoPoint {
  const { lat, lon } = location;
  if (lat === undefined || lat === null || lon === undefined || lon === null) {
    throw invalid('location needs both lat and lon.');
  }
  if (!isLatitude(lat)) throw invalid(LATITUDE);
  if (!isLongitude(lon)) throw invalid(LONGITUDE);
  return { lat, lon };
}

/** A new organisation's profile, every member checked; address and email are required. */
export function newOrganization(input: NewOrganizationInput): OrganizationProfile {
  const { name, email, phone = null, website = null, location = null } = input;
  const { adoptionPolicy = null } = input;
  checkName(name);
  checkEmail(email);
  if (phone !== null) checkPhone(phone);
  if (adoptionPolicy !== null) {
    checkText('adoptionPolicy', adoptionPolicy, ORGANIZATION_TEXT.adoptionPolicy);
  }
  return {
    name,
    email,
    phone,
    website: website === null ? null : websiteOf(website),
    address: addressOf(input.address),
    location: location === null ? null : locationOf(location),
    adoptionPolicy,
  };
}

/** The members an object gives: an absent one (undefined) keeps what was there when merged. */
const given = <T extends object>(members: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(members).filter(([, value]) => value !== undefined),
  ) as Partial<T>;

/** Members that may not be removed: null is refused for them. */
const REQUIRED = ['name', 'email', 'address'] as const;

/**
 * Checks every member a change gives, each on its own, before anything is read: a value that no
 * organisation could have is refused whatever the organisation is like now.
 */
export function checkPatch(patch: OrganizationPatch): void {
  for (const member of REQUIRED) {
    if (patch[member] === null) throw invalid(`${member} is required: it cannot be null.`);
  }
  const { name, email, phone, website, address, location, adoptionPolicy } = patch;
  if (name != null) checkName(name);
  if (email != null) checkEmail(email);
  if (phone != null) checkPhone(phone);
  if (website != null) websiteOf(website);
  if (adoptionPolicy != null) {
    checkText('adoptionPolicy', adoptionPolicy, ORGANIZATION_TEXT.adoptionPolicy);
  }
  if (address) {
    for (const member of ['city', 'country'] as const) {
      if (address[member] === null) {
        throw invalid(`address.${member} is required: it cannot be null.`);
      }
    }
    const { line1, city, region, postalCode, country } = address;
    if (city != null) checkText('address.city', city, ORGANIZATION_TEXT.city);
    if (country != null) checkCountry(country);
    if (line1 != null) checkText('address.line1', line1, ORGANIZATION_TEXT.line1);
    if (region != null) checkText('address.region', region, ORGANIZATION_TEXT.region);
    if (postalCode != null) {
      checkText('address.postalCode', postalCode, ORGANIZATION_TEXT.postalCode);
    }
  }
  if (location) {
    if (location.lat != null && !isLatitude(location.lat)) throw invalid(LATITUDE);
    if (location.lon != null && !isLongitude(location.lon)) throw invalid(LONGITUDE);
  }
}

/**
 * The profile `patch` leaves (RFC 7396: absent members kept, null clearing, `address` and
 * `location` merged member by member), checked whole: an address needs its city and country, a
 * location both its coordinates.
 */
export function patched(
  current: OrganizationProfile,
  patch: OrganizationPatch,
): OrganizationProfile {
  checkPatch(patch);
  const { name, email, phone, website, address, location, adoptionPolicy } = patch;
  const keep = <T>(given: T | undefined, kept: T) => (given === undefined ? kept : given);
  return {
    name: name ?? current.name,
    email: email ?? current.email,
    phone: keep(phone, current.phone),
    website: website === undefined ? current.website : website && websiteOf(website),
    address: address ? addressOf({ ...current.address, ...given(address) }) : current.address,
    location:
      location === undefined
        ? current.location
        : location && locationOf({ ...current.location, ...given(location) }),
    adoptionPolicy: keep(adoptionPolicy, current.adoptionPolicy),
  };
}

/** Whether two profiles say the same: a patch of an organisation's own values changes nothing. */
export function sameProfile(a: OrganizationProfile, b: OrganizationProfile): boolean {
  return JSON.stringify(profileOf(a)) === JSON.stringify(profileOf(b));
}

function profileOf(o: OrganizationProfile): OrganizationProfile {
  const { name, email, phone, website, address, location, adoptionPolicy } = o;
  return {
    name,
    email,
    phone,
    website,
    address: address && {
      line1: address.line1,
      city: address.city,
      region: address.region,
      postalCode: address.postalCode,
      country: address.country,
    },
    location: location && { lat: location.lat, lon: location.lon },
    adoptionPolicy,
  };
}
