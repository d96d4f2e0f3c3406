import './compile-cache';
import { API_KEY_USAGE, apiKeyCommand } from './access/cli/apikey';
import { ORGANIZATION_USAGE, organizationCommand } from './organizations/cli/org';
import { runCommand } from './platform/command-line/run-command';

/**
 * `npm run apikey`: the operator's command line. Each feature answers its own commands (keys in
 * src/access, organisations in src/organizations, which may not import each other); this entry
 * point, like main.ts outside every feature, hands `org …` to the organisations and the rest to the
 * keys, and shows both in the help.
 */
runCommand((argv) =>
  argv[0] === 'org'
    ? organizationCommand(argv.slice(1))
    : apiKeyCommand(argv, `${API_KEY_USAGE}\n\n${ORGANIZATION_USAGE}`),
);
