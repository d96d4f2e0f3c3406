/**
 * The rule for names that must be unique (categories, organisations; docs/adr/0045): two names
 * are one name when their keys are equal, and a name whose one word mixes Latin with Cyrillic or
 * Greek letters is no name at all. Pure, so the use cases, the repositories and the migrations
 * that backfill stored keys compute the very same key.
 */

/**
 * Characters that do not show: zero-width spaces and joiners, soft hyphens, variation selectors,
 * word joiners, the byte-order mark (Unicode's Default_Ignorable_Code_Point), and every
 * bidirectional control (marks, embeddings, overrides, isolates).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu;

/**
 * The key a name is compared by: invisible characters removed, NFKC (full-width `Ｄｏｇｓ`, the
 * `ﬁ` ligature, superscripts and the no-break space become what they look like), full case
 * folding (`Straße`, `STRASSE` and `strasse` are one), NFKC again (folding can undo it), white
 * space trimmed, and each run of white space inside made one space (`Dogs  Rescue` reads as
 * `Dogs Rescue`).
 *
 * Full case folding is upper case then lower case: JavaScript has no case folding of its own, and
 * this gives Unicode's full folding (`ß` to `ss`, final `ς` to `σ`) but for a few letters such as
 * the dotless `ı`, which folds with `i` here: those make more names one, never fewer.
 */
export function uniqueNameKey(name: string): string {
  const visible = name.replace(INVISIBLE, '').normalize('NFKC');
  return visible.toUpperCase().toLowerCase().normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/** The scripts a word may not mix, each a look-alike of the others' letters. */
const SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
] as const;

/**
 * Why a name is refused for mixing scripts in one word (Latin with Cyrillic or Greek, or those two
 * together: `Dоgs` with a Cyrillic `о`), or null. A word is a run of letters, marks and digits
 * once invisible characters are removed, so a zero-width space does not make two words of one;
 * names of one script each, side by side (`Dogs Собаки`), are fine.
 */
export function mixedScriptProblem(name: string): string | null {
  const words = name
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .split(/[^\p{L}\p{M}\p{Nd}]+/u);
  for (const word of words) {
    const scripts = SCRIPTS.filter(([, letters]) => letters.test(word)).map(([script]) => script);
    if (scripts.length > 1) {
      return `must not mix ${scripts.join(' and ')} letters in one word ("${word}")`;
    }
  }
  return null;
}

/** A stored name, and the key the unique-name rule compares it by. */
export interface KeyedName {
  id: number | string;
  name: string;
}

/**
 * For names stored before this rule (a migration's backfill): each one's key, in the order given
 * (the oldest first), and for a name whose key an earlier one already has, a new name that keeps
 * it and says which row it is (`Dogs (category 7)`), shortened to fit `max` code points, so that
 * nothing is lost and every key is unique. Returns the rows whose name or key is set.
 */
export function keyedNames(
  rows: readonly KeyedName[],
  label: string,
  max: number,
): { id: number | string; name: string; key: string }[] {
  const taken = new Set<string>();
  return rows.map(({ id, name }) => {
    let next = name;
    for (let attempt = 1; taken.has(uniqueNameKey(next)); attempt++) {
      const suffix = ` (${label} ${id}${attempt > 1 ? `, ${attempt}` : ''})`;
      const room = max - [...suffix].length;
      next = [...name].slice(0, Math.max(room, 0)).join('').trimEnd() + suffix;
    }
    const key = uniqueNameKey(next);
    taken.add(key);
    return { id, name: next, key };
  });
}
