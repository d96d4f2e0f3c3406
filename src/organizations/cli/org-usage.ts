/**
 * The organisations' commands as help shows them: a file of its own, so that the command line
 * shows them beside the keys' without loading the organisations' commands (src/command-line.ts).
 */
export const ORGANIZATION_USAGE = `Manage organisations (shelters) in the same database:

  npm run apikey -- org create --name <name> --email <address> --city <city> --country <ISO 3166-1 alpha-2, such as GB>
      [--phone <digits>] [--website <https URL>] [--line1 <street>] [--region <region>] [--postal-code <code>]
      [--lat <-90..90> --lon <-180..180>] [--adoption-policy <text>]
  npm run apikey -- org list
  npm run apikey -- org show <id>

Then issue its staff's first key: npm run apikey -- issue --name <name> --plan pro --organization <id> --scopes ...`;
