import {
  checkPatch,
  isFindableNearby,
  newOrganization,
  OrganizationProfile,
  patched,
  sameProfile,
} from './organization';
import { InvalidOrganizationError } from './organization.errors';

const input = {
  name: 'Harbour Rescue',
  email: 'adopt@harbour-rescue.example',
  address: { city: 'Bristol', country: 'GB' },
};

const full: OrganizationProfile = newOrganization({
  ...input,
  phone: '+44 117 496 0000',
  website: 'https://harbour-rescue.example',
  address: { line1: '12 Harbour Road', city: 'Bristol', postalCode: 'BS1 5TY', country: 'GB' },
  location: { lat: 51.4545, lon: -2.5879 },
  adoptionPolicy: 'Home visits before every adoption.\nNo dogs to flats without a garden.',
});

describe('newOrganization', () => {
  it('needs a name, an email and an address with a city and a country; the rest is null when not given', () => {
    expect(newOrganization(input)).toEqual({
      name: 'Harbour Rescue',
      email: 'adopt@harbour-rescue.example',
      phone: null,
      website: null,
      address: { line1: null, city: 'Bristol', region: null, postalCode: null, country: 'GB' },
      location: null,
      adoptionPolicy: null,
    });
  });

  it('keeps a website as parsed', () => {
    expect(full.website).toBe('https://harbour-rescue.example/');
  });

  it.each([
    [{ ...input, name: ' ' }, /name must not be only white space/],
    [{ ...input, name: 'x'.repeat(101) }, /name must be 1 to 100/],
    [{ ...input, email: 'nobody' }, /email must be an address/],
    [{ ...input, phone: 'call us' }, /phone must be digits/],
    [{ ...input, website: 'http://harbour.example' }, /website must be an https URL/],
    [{ ...input, website: 'https://me:pw@harbour.example' }, /must not carry credentials/],
    [{ ...input, website: 'harbour.example' }, /website must be an absolute https URL/],
    [{ ...input, address: { country: 'GB' } }, /address.city is required/],
    [{ ...input, address: { city: 'Bristol' } }, /address.country is required/],
    [{ ...input, address: { city: 'Bristol', country: 'gb' } }, /ISO 3166-1 alpha-2/],
    [{ ...input, address: { city: 'Bristol', country: 'UK' } }, /ISO 3166-1 alpha-2/],
    [{ ...input, location: { lat: 91, lon: 0 } }, /location.lat must be a number from -90 to 90/],
    [{ ...input, location: { lat: 0, lon: -181 } }, /location.lon must be/],
    [{ ...input, location: { lat: 10 } }, /location needs both lat and lon/],
    [{ ...input, adoptionPolicy: 'x'.repeat(5001) }, /adoptionPolicy must be 1 to 5000/],
  ])('refuses %j', (given, why) => {
    expect(() => newOrganization(given)).toThrow(InvalidOrganizationError);
    expect(() => newOrganization(given)).toThrow(why);
  });
});

describe('patched', () => {
  it('keeps absent members, clears optional ones given null, and merges the address and location', () => {
    expect(
      patched(full, {
        phone: null,
        address: { region: 'Avon', postalCode: null },
        location: { lat: 51.5 },
      }),
    ).toEqual({
      ...full,
      phone: null,
      address: {
        line1: '12 Harbour Road',
        city: 'Bristol',
        region: 'Avon',
        postalCode: null,
        country: 'GB',
      },
      location: { lat: 51.5, lon: -2.5879 },
    });
    expect(patched(full, { location: null }).location).toBeNull();
  });

  it("takes a member that is there but undefined (as a parsed body's class holds it) as absent", () => {
    const merged = patched(full, {
      address: { city: undefined, region: 'Avon', country: undefined },
      location: { lat: undefined, lon: -2.6 },
    });
    expect(merged.address).toMatchObject({ city: 'Bristol', region: 'Avon', country: 'GB' });
    expect(merged.location).toEqual({ lat: 51.4545, lon: -2.6 });
  });

  it.each([
    [{ name: null }, /name is required/],
    [{ email: null }, /email is required/],
    [{ address: null }, /address is required/],
    [{ address: { city: null } }, /address.city is required/],
    [{ address: { country: 'XX' } }, /ISO 3166-1/],
    [{ location: { lat: 100 } }, /location.lat/],
  ])('refuses %j, on its own, before anything is read', (patch, why) => {
    expect(() => checkPatch(patch)).toThrow(why);
    expect(() => patched(full, patch)).toThrow(why);
  });

  it('gives organisation 1, which starts without an address or a location, one only whole', () => {
    const house: OrganizationProfile = { ...full, email: null, address: null, location: null };
    expect(() => patched(house, { address: { city: 'Leeds' } })).toThrow(
      /address.country is required/,
    );
    expect(() => patched(house, { location: { lat: 53.8 } })).toThrow(/needs both lat and lon/);
    expect(patched(house, { address: { city: 'Leeds', country: 'GB' } }).address).toEqual({
      line1: null,
      city: 'Leeds',
      region: null,
      postalCode: null,
      country: 'GB',
    });
  });

  it('says whether a patch changes anything', () => {
    expect(sameProfile(full, patched(full, { name: full.name, location: { lat: 51.4545 } }))).toBe(
      true,
    );
    expect(sameProfile(full, patched(full, { name: 'Harbour Rescue Centre' }))).toBe(false);
  });
});

describe('isFindableNearby', () => {
  it('is whether a near search has a location to measure from', () => {
    expect(isFindableNearby(newOrganization(input))).toBe(false);
    expect(
      isFindableNearby(newOrganization({ ...input, location: { lat: 51.45, lon: -2.59 } })),
    ).toBe(true);
  });
});
