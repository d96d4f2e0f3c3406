import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { OPERATOR } from '../../common/requester';
import { MAX_PAGE_SIZE } from '../../common/paging';
import { migrations } from '../../migrations';
import { AppConfig, loadConfig } from '../../platform/config/app-config';
import { ConfigModule } from '../../platform/config/config.module';
import { databaseOfCommandLine } from '../../platform/database/command-line-database';
import { DatabaseModule } from '../../platform/database/database.module';
import { Idempotency } from '../../platform/idempotency/idempotency';
import { PostgresIdempotency } from '../../platform/idempotency/postgres-idempotency';
import { CreateOrganization } from '../application/create-organization.use-case';
import { GetOrganization } from '../application/get-organization.use-case';
import { ListOrganizations } from '../application/list-organizations.use-case';
import { OrganizationRepository } from '../application/organization.repository';
import {
  MAX_ORGANIZATION_ID,
  NewOrganizationInput,
  newOrganization,
  Organization,
} from '../domain/organization';
import { InvalidOrganizationError, OrganizationNotFoundError } from '../domain/organization.errors';
import { SqlOrganizationRepository } from '../infrastructure/sql-organization.repository';
import { organizationAnswer } from '../http/dto/organization-answer';
import { ORGANIZATION_USAGE } from './org-usage';

/**
 * Said at creation without --lat and --lon: a `near` search measures from the location, so the
 * organisation's animals are never found by one, and nothing else would say so.
 */
const NOT_FINDABLE_NEARBY = (id: number) =>
  `Not findable nearby ("findableNearby": false): without --lat and --lon, near searches never list its animals. ` +
  `Give it a location with PATCH /v1/organizations/${id} {"location":{"lat":…,"lon":…}} (organization:manage).`;

/** The command line's flag for each member a refusal of the domain names first. */
const FLAGS: Record<string, string> = {
  name: '--name',
  email: '--email',
  phone: '--phone',
  website: '--website',
  'address.line1': '--line1',
  'address.city': '--city',
  'address.region': '--region',
  'address.postalCode': '--postal-code',
  'address.country': '--country',
  'location.lat': '--lat',
  'location.lon': '--lon',
  adoptionPolicy: '--adoption-policy',
};

/** A small composition root: the database and the organisations' use cases, nothing served. */
@Module({})
class OrganizationsCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: OrganizationsCliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(migrations)],
      providers: [
        CreateOrganization,
        ListOrganizations,
        GetOrganization,
        { provide: OrganizationRepository, useClass: SqlOrganizationRepository },
        // createOrganization takes an Idempotency-Key over HTTP; a command is not retried.
        { provide: Idempotency, useClass: PostgresIdempotency },
      ],
    };
  }
}

const REQUIRED = ['name', 'email', 'city', 'country'] as const;

/**
 * `--lon -2.59` as `--lon=-2.59`: parseArgs takes a value that starts with a dash for an option,
 * and half the world's longitudes do.
 */
function withNegativeCoordinates(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [arg, next] = [argv[i], argv[i + 1]];
    if ((arg === '--lat' || arg === '--lon') && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** A coordinate as written: a decimal number, never a blank or `0x10` that Number() would take. */
function coordinate(flag: string, text: string): number {
  if (!/^[+-]?\d+(\.\d+)?$/.test(text)) throw new Error(`${flag} must be a number, such as 51.45.`);
  return Number(text);
}

/** The organisation the flags describe; the domain checks every member as the admin API does. */
function newOrganizationOf(values: Record<string, string | undefined>): NewOrganizationInput {
  const missing = REQUIRED.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `org create needs ${missing.map((flag) => `--${flag}`).join(', ')}` +
        ' (--name, --email, --city and --country are required; npm run apikey -- --help).',
    );
  }
  const { lat, lon } = values;
  if ((lat === undefined) !== (lon === undefined)) {
    throw new Error('--lat and --lon go together: give both, or neither.');
  }
  return {
    name: values.name!,
    email: values.email!,
    phone: values.phone ?? null,
    website: values.website ?? null,
    address: {
      line1: values.line1 ?? null,
      city: values.city!,
      region: values.region ?? null,
      postalCode: values['postal-code'] ?? null,
      country: values.country!,
    },
    location:
      lat === undefined || lon === undefined
        ? null
        : { lat: coordinate('--lat', lat), lon: coordinate('--lon', lon) },
    adoptionPolicy: values['adoption-policy'] ?? null,
  };
}

/** A refusal in the operator's words: the domain names the member (address.country), they typed a flag. */
function inFlags(error: unknown): unknown {
  if (!(error instanceof InvalidOrganizationError)) return error;
  return new Error(error.message.replace(/^[\w.]+/, (member) => FLAGS[member] ?? member));
}

/** Every organisation, in ascending id, a page at a time. */
async function everyOrganization(list: ListOrganizations): Promise<Organization[]> {
  const all: Organization[] = [];
  let after: number | undefined;
  do {
    const page = await list.execute(OPERATOR, { after, limit: MAX_PAGE_SIZE });
    all.push(...page.organizations);
    after = page.nextAfter ?? undefined;
  } while (after !== undefined);
  return all;
}

/** `npm run apikey -- org …`: `argv` is what follows `org`. */
export async function organizationCommand(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: withNegativeCoordinates(argv),
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      website: { type: 'string' },
      line1: { type: 'string' },
      city: { type: 'string' },
      region: { type: 'string' },
      'postal-code': { type: 'string' },
      country: { type: 'string' },
      lat: { type: 'string' },
      lon: { type: 'string' },
      'adoption-policy': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const { help, ...flags } = values;
  const [command, id] = positionals;
  if (help || command === undefined) return ORGANIZATION_USAGE;
  if (!['create', 'list', 'show'].includes(command)) {
    throw new Error(`Unknown command: org ${command}.\n\n${ORGANIZATION_USAGE}`);
  }
  const input = command === 'create' ? newOrganizationOf(flags) : undefined;
  try {
    // Checked before the database is opened, as the use case checks it again: a typing error
    // costs no start-up.
    if (input) newOrganization(input);
  } catch (error) {
    throw inFlags(error);
  }
  if (command === 'show' && !id) throw new Error('org show needs the id of an organisation.');
  const wanted = Number(id);
  if (command === 'show' && !(/^[1-9]\d{0,15}$/.test(id) && wanted <= MAX_ORGANIZATION_ID)) {
    throw new OrganizationNotFoundError(id);
  }

  const config = databaseOfCommandLine(loadConfig());
  const app = await NestFactory.createApplicationContext(OrganizationsCliModule.forRoot(config), {
    logger: ['error'],
  });
  try {
    // Each organisation as the API answers it (`findableNearby` included).
    if (command === 'list') {
      const all = await everyOrganization(app.get(ListOrganizations));
      return JSON.stringify(all.map(organizationAnswer), null, 2);
    }
    if (command === 'show') {
      const organization = await app.get(GetOrganization).execute(OPERATOR, wanted);
      return JSON.stringify(organizationAnswer(organization), null, 2);
    }
    // A command is never a replay: the organisation as the admin API answers it.
    const { replayed: _replayed, ...created } = await app.get(CreateOrganization).execute(input!);
    const organization = organizationAnswer(created);
    return (
      `${JSON.stringify(organization, null, 2)}\n\n` +
      (organization.findableNearby ? '' : `${NOT_FINDABLE_NEARBY(organization.id)}\n\n`) +
      `Issue its staff's first key: npm run apikey -- issue --name <name> --plan pro --organization ${organization.id} ` +
      '--scopes pets:read,pets:write,pets:manage,orders:read,orders:manage,organization:manage'
    );
  } catch (error) {
    throw inFlags(error);
  } finally {
    await app.close();
  }
}
