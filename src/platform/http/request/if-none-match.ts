/**
 * Whether an If-None-Match field names the entity tag whose opaque value is `opaque`: `*` (any
 * current representation), or a comma-separated list holding it. The comparison is weak (RFC 9110
 * §13.1.2): `W/"…"` matches as well as `"…"`.
 */
export function namesEntityTag(field: string | undefined, opaque: string): boolean {
  if (field === undefined) return false;
  if (field.trim() === '*') return true;
  const tag = `"${opaque}"`;
  return field.split(',').some((member) => member.trim().replace(/^W\//, '') === tag);
}
