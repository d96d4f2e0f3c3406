// The generated text in English: a record's plural (the feature's folder, its table, its scope)
// and its article ("an application", "a kennel"), from its kebab-case name. Rules, not a
// dictionary: enough for the names a feature takes; an odd one is corrected by hand once.

/**
 * Plurals that no rule below gives, each read back by singularOf: the irregular, the -f and -fe
 * words that take -ves (a rule would make `roofs` `rooves`), the -sis words, and the words whose
 * plural is the same (a shelter's `species`).
 */
const IRREGULAR = {
  person: 'people',
  child: 'children',
  mouse: 'mice',
  goose: 'geese',
  tooth: 'teeth',
  foot: 'feet',
  calf: 'calves',
  half: 'halves',
  hoof: 'hooves',
  knife: 'knives',
  leaf: 'leaves',
  life: 'lives',
  loaf: 'loaves',
  scarf: 'scarves',
  shelf: 'shelves',
  thief: 'thieves',
  wife: 'wives',
  wolf: 'wolves',
  analysis: 'analyses',
  diagnosis: 'diagnoses',
  prognosis: 'prognoses',
  criterion: 'criteria',
  species: 'species',
  series: 'series',
  sheep: 'sheep',
  fish: 'fish',
  deer: 'deer',
};

/** The plural of one lower-case word. */
function pluralWord(word) {
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word];
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The plural of a kebab-case name: its last word's (`medical-note` → `medical-notes`). */
function pluralOf(name) {
  const words = name.split('-');
  return [...words.slice(0, -1), pluralWord(words[words.length - 1])].join('-');
}

/** The singular of a feature folder (`categories` → `category`, `boxes` → `box`). */
function singularOf(folder) {
  const words = folder.split('-');
  const last = words[words.length - 1];
  const irregular = Object.entries(IRREGULAR).find(([, plural]) => plural === last)?.[0];
  const singular =
    irregular ??
    (/[^aeiou]ies$/.test(last)
      ? `${last.slice(0, -3)}y`
      : // statuses, buses, but causes and houses
        /(ss|[^aeiou]us|x|z|ch|sh)es$/.test(last)
        ? last.slice(0, -2)
        : last.replace(/s$/, ''));
  return [...words.slice(0, -1), singular].join('-');
}

/** The words of a kebab-case name, as a sentence says them: `medical-note` → `medical note`. */
const wordsOf = (name) => name.replace(/-/g, ' ');

/**
 * `a` or `an` before the words, by their first sound as far as spelling tells it: an
 * application, an hour, a kennel, a unicorn, a user, a one-off.
 */
function articleOf(words) {
  if (/^(hour|honest|honou?r|heir)/.test(words)) return 'an';
  if (/^(uni|use|usu|ur[aeiou]|eu|ewe|one|once)/.test(words)) return 'a';
  return /^[aeiou]/.test(words) ? 'an' : 'a';
}

/** The words with their article: `an application`. */
const withArticle = (words) => `${articleOf(words)} ${words}`;

module.exports = { pluralOf, singularOf, wordsOf, articleOf, withArticle };
