/** Bounds of a text field, in Unicode code points (what a person counts as characters). */
export interface TextBounds {
  min: number;
  max: number;
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

/**
 * The one rule for text a client stores (a pet's name, an API key's name): counted in code points,
 * not only white space, no NUL character (PostgreSQL cannot store it) and no lone surrogate (it
 * is not a character: UTF-8 cannot encode it, and it would be stored as U+FFFD). Returns why the
 * text is refused, phrased to follow the field's name, or null when it is acceptable.
 */
export function textProblem(text: string, { min, max }: TextBounds): string | null {
  const length = codePointLength(text);
  if (length < min || length > max) return `must be ${min} to ${max} characters long`;
  if (text.trim() === '') return 'must not be only white space';
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (\\uD800 to \\uDFFF)';
  return null;
}
