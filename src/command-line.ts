import './compile-cache';
import { API_KEY_USAGE, apiKeyCommand } from './access/cli/apikey';
import { ORGANIZATION_USAGE } from './organizations/cli/org-usage';
import { runCommand } from './platform/command-line/run-command';

type OrganizationCommands = typeof import('./organizations/cli/org');

/**
 * The organisations' commands, loaded only for `org …`: a key's command does not wait for their
 * modules (0.1 to 0.2 s of a command's 0.9 s, measured on a built service).
 */
function organizationCommands(): OrganizationCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./organizations/cli/org') as OrganizationCommands;
}

/**
 * `npm run apikey`: the operator's command line. Each feature answers its own commands (keys in
 * src/access, organisations in src/organizations, which may not import each other); this entry
 * point, like main.ts outside every feature, hands `org …` to the organisations and the rest to the
 * keys, and shows both in the help.
 */
runCommand((argv) =>
  argv[0] === 'org'
    ? organizationCommands().organizationCommand(argv.slice(1))
    : apiKeyCommand(argv, `${API_KEY_USAGE}\n\n${ORGANIZATION_USAGE}`),
);
