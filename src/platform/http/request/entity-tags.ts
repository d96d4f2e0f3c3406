/**
 * Entity tags (RFC 9110 §8.8.3) and the If-Match precondition (§13.1.1), as plain code.
 *
 * `If-Match: "*" / #entity-tag`, where `entity-tag = [ W/ ] DQUOTE *etagc DQUOTE` and `etagc` is
 * any visible character but DQUOTE (obs-text included). If-Match compares strongly: a weak tag
 * (`W/"3"`) never matches, so it is parsed and dropped; a list matches when any member does.
 */

/** What an If-Match header asks: any current representation (`*`), or one of these opaque tags. */
export type IfMatchCondition =
  | { readonly any: true }
  | {
      readonly any: false;
      /** The strong tags' opaque values, without their quotes; weak tags are left out. */
      readonly tags: readonly string[];
    };

/** A strong entity tag for an opaque value: `"3"`. */
export const strongEntityTag = (opaque: string) => `"${opaque}"`;

/** Optional white space (RFC 9110 §5.6.3). */
const isOws = (char: string) => char === ' ' || char === '\t';
/** `etagc`: %x21 / %x23-7E / obs-text (%x80-FF; Node gives header bytes as latin1 characters). */
const isEtagc = (code: number) =>
  code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);

/**
 * Parses an If-Match field value (several header lines arrive joined with commas), or returns
 * null when it is not one: `*` alone, or a comma-separated list of at least one entity tag, with
 * optional white space around the commas and empty list elements ignored (§5.6.1.2).
 */
export function parseIfMatch(value: string): IfMatchCondition | null {
  if (value.trim() === '*') return { any: true };
  const tags: string[] = [];
  let members = 0;
  let i = 0;
  const skipOws = () => {
    while (i < value.length && isOws(value[i])) i++;
  };
  for (;;) {
    skipOws();
    if (i < value.length && value[i] !== ',') {
      const weak = value.startsWith('W/', i);
      if (weak) i += 2;
      if (value[i] !== '"') return null;
      const start = ++i;
      while (i < value.length && isEtagc(value.charCodeAt(i))) i++;
      if (value[i] !== '"') return null;
      if (!weak) tags.push(value.slice(start, i));
      i++;
      members++;
      skipOws();
    }
    if (i === value.length) break;
    if (value[i] !== ',') return null;
    i++;
  }
  return members > 0 ? { any: false, tags } : null;
}
