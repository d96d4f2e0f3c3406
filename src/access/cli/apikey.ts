import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeys, ApiKeyView, isPlan, PLANS } from '@pet-adoption/api-keys';
import { parseArgs } from 'node:util';
import { apiKeysFromConfig } from '../api-keys-from-config';
import { ConfigModule } from '../../platform/config/config.module';
import { AppConfig, loadConfig } from '../../platform/config/app-config';
import { runCommand } from '../../platform/command-line/run-command';
import { databaseOfCommandLine } from '../../platform/database/command-line-database';
import { DatabaseModule } from '../../platform/database/database.module';
import { migrations } from '../../migrations';
import { DEFAULT_SCOPES, SCOPES } from '../../common/scopes';
import { dateTimeProblem, instantOf } from '../../common/date-time';

export const API_KEY_USAGE = `Manage API keys in the configured database (DATABASE_URL, or the embedded one in DATA_DIR,
through the service while it runs).

  npm run apikey -- issue --name <name> --plan <${PLANS.join('|')}> [--per-minute N --per-day N [--open-orders N] [--webhook-endpoints N]]
      [--scopes ${SCOPES.join(',')}]   (default: ${DEFAULT_SCOPES.join(',')})
      [--organization <id>]   (a staff key of that organisation; none: an adopter's or integrator's key)
      [--expires <date-time>]   (RFC 3339, at most two years away: refused from then on)
  npm run apikey -- list
  npm run apikey -- revoke <id>

An issued key is printed once; only its hash is stored.`;

@Module({})
class ApiKeyCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiKeyCliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(migrations),
        apiKeysFromConfig(),
      ],
    };
  }
}

/**
 * A key as the command line prints it: ids as JSON numbers, as the admin API and every other answer
 * give them (the library keeps them as text, its store's bigint, which is no concern of an
 * operator who passes the id on to `--organization` or the API).
 */
function printable<K extends Pick<ApiKeyView, 'id' | 'organizationId'>>(key: K) {
  return {
    ...key,
    id: Number(key.id),
    organizationId: key.organizationId === null ? null : Number(key.organizationId),
  };
}

/** `usage`: what help shows; src/command-line.ts adds the other command lines' to it. */
export async function apiKeyCommand(argv: string[], usage = API_KEY_USAGE): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
      'open-orders': { type: 'string' },
      'webhook-endpoints': { type: 'string' },
      scopes: { type: 'string' },
      organization: { type: 'string' },
      expires: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, id] = positionals;
  if (values.help || !['issue', 'list', 'revoke'].includes(command)) return usage;
  if (command === 'issue' && (!values.name || !isPlan(values.plan))) throw new Error(usage);
  if (command === 'revoke' && !id) throw new Error(usage);

  const config = databaseOfCommandLine(loadConfig());
  const app = await NestFactory.createApplicationContext(ApiKeyCliModule.forRoot(config), {
    logger: ['error'],
  });
  try {
    const keys = app.get(ApiKeys);
    if (command === 'list') return JSON.stringify((await keys.list()).map(printable), null, 2);
    if (command === 'revoke') {
      await keys.revoke(id);
      return `Revoked key ${id}.`;
    }
    const limits =
      values['per-minute'] === undefined && values['per-day'] === undefined
        ? undefined
        : {
            perMinute: Number(values['per-minute']),
            perDay: Number(values['per-day']),
            ...(values['open-orders'] === undefined
              ? {}
              : { openOrders: Number(values['open-orders']) }),
            ...(values['webhook-endpoints'] === undefined
              ? {}
              : { webhookEndpoints: Number(values['webhook-endpoints']) }),
          };
    const expires = values.expires;
    if (expires !== undefined && dateTimeProblem(expires)) {
      throw new Error(`--expires ${dateTimeProblem(expires)}.`);
    }
    const organization = values.organization;
    if (organization !== undefined && !/^[1-9][0-9]{0,15}$/.test(organization)) {
      throw new Error('--organization must be the id of an organisation, such as 2.');
    }
    const { apiKey, key } = await keys.issue({
      name: values.name!,
      plan: values.plan as never,
      limits,
      // Checked by the library: an unknown, repeated or empty scope is refused with its reason.
      scopes: values.scopes?.split(',').map((scope) => scope.trim()),
      organizationId: organization ?? null,
      expiresAt: expires === undefined ? null : instantOf(expires),
    });
    return `${JSON.stringify({ ...printable(apiKey), key }, null, 2)}\n\nThe key is shown this once only: store it now.`;
  } finally {
    await app.close();
  }
}

// `npm run apikey` runs src/command-line.ts, which adds the organisations' commands; this file run
// on its own (as CI and older scripts do: node dist/src/access/cli/apikey.js) answers the keys'.
if (require.main === module) runCommand(apiKeyCommand);
