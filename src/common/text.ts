/** Bounds of a text field, in Unicode code points (what a person counts as characters). */
export interface TextBounds {
  min: number;
  max: number;
  /**
   * Whether the text is prose of several lines (a description, a policy): then line feed,
   * carriage return and tab are characters of it. Everywhere else they are controls like the rest.
   */
  multiline?: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Length in code points: an emoji outside the Basic Multilingual Plane counts once, not twice. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** C0 controls, DEL and C1 controls (Unicode's `Cc`); the second without tab, LF and CR. */
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */

const codeOf = (character: string) =>
  `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The characters no client string may hold, whatever it is (a name, a URL, a date, an id, a
 * query parameter): the NUL character (PostgreSQL cannot store it), a lone surrogate (it is not a
 * character: UTF-8 cannot encode it, and it would be stored as U+FFFD), and C0 and C1 controls
 * (they are not text, and a tab or line break inside a URL or a name is read differently by each
 * reader, as WHATWG URL parsing drops it). Tab, LF and CR are allowed in `multiline` prose.
 * Returns why the text is refused, phrased to follow the field's name, or null.
 */
export function characterProblem(text: string, multiline = false): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (\\uD800 to \\uDFFF)';
  const control = (multiline ? CONTROL_BUT_LINES : CONTROL).exec(text);
  if (control) return `must not contain the control character ${codeOf(control[0])}`;
  return null;
}

/**
 * The one rule for text a client stores (a pet's name, an API key's name): counted in code points,
 * not only white space, and no character `characterProblem` refuses. Returns why the text is
 * refused, phrased to follow the field's name, or null when it is acceptable.
 */
export function textProblem(text: string, { min, max, multiline }: TextBounds): string | null {
  const length = codePointLength(text);
  if (length < min || length > max) return `must be ${min} to ${max} characters long`;
  if (text.trim() === '') return 'must not be only white space';
  return characterProblem(text, multiline);
}
