import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiClient } from './support/http';
import { buildOnce } from './support/service-process';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = join(__dirname, '..');
/** What `npm run apikey` runs once the build is current. */
const COMMAND_LINE = join(ROOT, 'dist', 'src', 'command-line.js');

// Each command is a Node process that boots an application context: about 2 s apiece on a busy
// 2-core machine. Never judged by its duration.
jest.setTimeout(60_000);

/** A name no other run has used: organisations outlive the tests, names are unique. */
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd: ROOT,
      env: { ...process.env, API_KEY_PREFIX: 'pet_test_' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as Outcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const apikey = (...args: string[]) => run(process.execPath, [COMMAND_LINE, ...args]);

/** The JSON a command printed before its closing advice, if any. */
const printed = (stdout: string) => JSON.parse(stdout.split('\n\n')[0]);

/** npm run apikey -- org …: the operator onboards shelters from the command line. */
describe('npm run apikey -- org', () => {
  let t: TestApp;

  beforeAll(async () => {
    buildOnce();
    t = await startTestApp();
  }, 180_000);
  afterAll(() => t.close());

  it('creates an organisation as the admin API would, and shows and lists it', async () => {
    const name = unique('Harbour Rescue');
    // As an operator types it, through npm and the build check; a negative longitude included.
    const created = await run('npm', [
      'run',
      '--silent',
      'apikey',
      '--',
      'org',
      'create',
      '--name',
      name,
      '--email',
      'adopt@harbour.example',
      '--city',
      'Bristol',
      '--country',
      'GB',
      '--postal-code',
      'BS1 5TY',
      '--website',
      'https://Harbour.example',
      '--lat',
      '51.4545',
      '--lon',
      '-2.5879',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const organization = printed(created.stdout);
    expect(organization).toEqual({
      id: expect.any(Number),
      name,
      email: 'adopt@harbour.example',
      phone: null,
      website: 'https://harbour.example/',
      address: { line1: null, city: 'Bristol', region: null, postalCode: 'BS1 5TY', country: 'GB' },
      location: { lat: 51.4545, lon: -2.5879 },
      findableNearby: true,
      adoptionPolicy: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(created.stdout).toContain(`--organization ${organization.id} `);
    // With a location, nothing to warn of.
    expect(created.stdout).not.toContain('Not findable nearby');

    const served = await apiClient(t.url, t.auth).get(`/v1/organizations/${organization.id}`);
    expect(served.body).toEqual(organization);
    const shown = await apikey('org', 'show', String(organization.id));
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(organization);
    const listed = await apikey('org', 'list');
    expect(listed.code).toBe(0);
    const all = JSON.parse(listed.stdout) as { id: number }[];
    expect(all.map(({ id }) => id)).toContain(1);
    expect(all).toContainEqual(organization);
    expect(all.map(({ id }) => id)).toEqual([...all.map(({ id }) => id)].sort((a, b) => a - b));
  });

  it.each([
    [['--country', 'gb'], '--country must be an ISO 3166-1 alpha-2 code in capitals, such as DE.'],
    [['--email', 'adopt'], '--email must be an address such as adopt@shelter.example.'],
    [['--lat', '91', '--lon', '0'], '--lat must be a number from -90 to 90.'],
    [['--lat', '', '--lon', '0'], '--lat must be a number, such as 51.45.'],
    [['--lat', '51'], '--lat and --lon go together: give both, or neither.'],
    [['--website', 'http://harbour.example/'], '--website must be an https URL.'],
  ])('refuses %j with one plain line, exit code 1, and creates nothing', async (flags, line) => {
    const name = unique('Refused');
    const given = ['--name', name, '--email', 'a@harbour.example', '--city', 'Bristol'];
    const refused = await apikey('org', 'create', ...given, '--country', 'GB', ...flags);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
    const { body } = await apiClient(t.url, t.auth).get(
      `/v1/organizations?name=${encodeURIComponent(name)}`,
    );
    expect(body).toEqual([]);
  });

  it('names the flags a creation lacks, and a name another organisation has', async () => {
    expect(await apikey('org', 'create', '--name', unique('Lacking'), '--city', 'Bristol')).toEqual(
      {
        code: 1,
        stdout: '',
        stderr:
          'org create needs --email, --country (--name, --email, --city and --country are required; npm run apikey -- --help).\n',
      },
    );
    const name = unique('Twice');
    const flags = ['--email', 'a@twice.example', '--city', 'Leeds', '--country', 'GB'];
    expect((await apikey('org', 'create', '--name', name, ...flags)).code).toBe(0);
    const again = await apikey('org', 'create', '--name', name.toUpperCase(), ...flags);
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr: `Another organization is already named ${JSON.stringify(name.toUpperCase())} (names are compared ignoring case, width and invisible characters).\n`,
    });
  });

  it.each(['99999999', '9007199254740992', 'abc'])(
    'refuses to show %s with one plain line',
    async (id) => {
      expect(await apikey('org', 'show', id)).toEqual({
        code: 1,
        stdout: '',
        stderr: `No organization with id ${id}.\n`,
      });
    },
  );

  it('refuses an unknown command, and shows both command lines in its help', async () => {
    const unknown = await apikey('org', 'adopt');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Unknown command: org adopt\.\n/);
    const help = await apikey('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('npm run apikey -- issue --name <name>');
    expect(help.stdout).toContain('npm run apikey -- org create --name <name>');
  });

  it('says at creation that an organisation without --lat and --lon is not findable nearby', async () => {
    const created = await apikey(
      ...['org', 'create', '--name', unique('Placeless'), '--email', 'a@placeless.example'],
      ...['--city', 'York', '--country', 'GB'],
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const organization = printed(created.stdout) as { id: number };
    expect(organization).toMatchObject({ location: null, findableNearby: false });
    const [, advice] = created.stdout.split('\n\n');
    expect(advice).toBe(
      'Not findable nearby ("findableNearby": false): without --lat and --lon, near searches never list its animals. ' +
        `Give it a location with PATCH /v1/organizations/${organization.id} {"location":{"lat":…,"lon":…}} (organization:manage).`,
    );
    // As the API answers it, and as `org show` prints it.
    const served = await apiClient(t.url, t.auth).get(`/v1/organizations/${organization.id}`);
    expect(served.body).toEqual(organization);
    expect(JSON.parse((await apikey('org', 'show', String(organization.id))).stdout)).toEqual(
      organization,
    );
  });

  it('gives a created organisation its staff key: issue --organization <id>', async () => {
    const created = await apikey(
      ...['org', 'create', '--name', unique('Staffed'), '--email', 'a@staffed.example'],
      ...['--city', 'York', '--country', 'GB'],
    );
    const { id } = printed(created.stdout) as { id: number };
    const issued = await apikey(
      ...['issue', '--name', 'Staffed desk', '--plan', 'pro', '--organization', String(id)],
      ...['--scopes', 'pets:read,pets:write,pets:manage'],
    );
    expect(issued.code).toBe(0);
    const key = /"key": "(pet_test_[A-Za-z0-9_-]{43})"/.exec(issued.stdout)![1];
    expect(issued.stdout).toContain(`"organizationId": ${id},`);

    // The key is the organisation's staff: what it adds belongs to the organisation.
    const staff = apiClient(t.url, { authorization: `Bearer ${key}` });
    const pet = await staff.post('/v1/pets').send({ name: 'Biscuit', categoryId: 1 });
    expect(pet.status).toBe(201);
    expect(pet.body.organizationId).toBe(id);
  });
});
