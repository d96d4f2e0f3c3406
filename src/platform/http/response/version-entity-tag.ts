import { IfMatchCondition, strongEntityTag } from '../request/entity-tags';
import { MAX_VERSION, VersionPrecondition } from '../../../common/versions';

/**
 * A versioned resource's entity tag (a pet's, an organisation's): its version, quoted (`"3"`);
 * strong, since a version names one state.
 */
export const versionEntityTag = (resource: { version: number }) =>
  strongEntityTag(String(resource.version));

/** The `ETag` response header of a versioned resource's answer, as the OpenAPI document states it. */
export const etagHeader = (resource: string) => ({
  ETag: {
    description: `The ${resource}'s version as a strong entity tag (\`"3"\`): send it back in \`If-Match\` to change the ${resource} only as it was read, or in \`If-None-Match\` to read it again (304 while unchanged)`,
    schema: { type: 'string' },
  },
});

/**
 * What an If-Match condition asks of a resource's version. A tag that is no version this service
 * gives (`"abc"`, `"0"`, `"03"`) stays in the list and matches no version.
 */
export function versionPreconditionOf(
  condition: IfMatchCondition | undefined,
): VersionPrecondition | undefined {
  if (!condition) return undefined;
  if (condition.any) return { anyVersion: true };
  const versions = condition.tags
    .filter((tag) => /^[1-9][0-9]{0,9}$/.test(tag))
    .map(Number)
    .filter((version) => version <= MAX_VERSION);
  return { anyVersion: false, versions };
}
