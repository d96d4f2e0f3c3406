/**
 * Numbers judged by their text (docs/adr/0025). `JSON.parse` rounds a literal to the nearest
 * double before anything sees it: `1.0000000000000001`, `9007199254740991.4` and `1e0` all become
 * an integer, `9007199254740993` becomes 9007199254740992. Most numbers this API takes are
 * integers within ±(2^53 − 1), so a literal written any other way arrives as an InexactNumber,
 * not a number: every integer rule refuses it, naming the field. The few fields that take a
 * decimal (a latitude) say so (`@DecimalNumber()`), and read the number it writes.
 */

/** Cheap, and may say yes falsely (digits in a string): a number written other than as an integer, or long enough to round. */
const MAY_BE_INEXACT = /\d[.eE]|\d{16}/;
/** A JSON number literal (RFC 8259 §6), whole. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/** A literal held exactly by a JavaScript number as the integer it writes. */
const PLAIN_INTEGER = /^-?(0|[1-9]\d{0,15})$/;

/**
 * Stands for an inexact literal, followed by it, while the text is parsed; its NUL makes it no
 * valid text field.
 */
const MARKER = '\u0000inexact number:';

/** A number literal that is no plain safe integer, as a body held it: refused by integer rules. */
export class InexactNumber {
  constructor(readonly literal: string) {}

  /** The number it writes, to the nearest double: what a decimal field takes. */
  get value(): number {
    return Number(this.literal);
  }
}

const isNumberChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

const isExact = (literal: string) =>
  PLAIN_INTEGER.test(literal) && Number.isSafeInteger(Number(literal));

/**
 * The JSON text with every number literal that is not a plain safe integer replaced by a marker
 * string, or null when it has none. Only whole, valid literals outside strings are replaced, so a
 * text that is not JSON stays not JSON.
 */
export function markInexactNumbers(text: string): string | null {
  if (!MAY_BE_INEXACT.test(text)) return null;
  let parts: string[] | null = null;
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      const literal = text.slice(i, end);
      if (JSON_NUMBER.test(literal) && !isExact(literal)) {
        (parts ??= []).push(text.slice(copied, i), JSON.stringify(MARKER + literal));
        copied = end;
      }
      i = end - 1;
    }
  }
  return parts ? parts.join('') + text.slice(copied) : null;
}

/** The reviver that turns the marker into the literal it stands for, as an InexactNumber. */
export function reviveInexactNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(MARKER)
    ? new InexactNumber(value.slice(MARKER.length))
    : value;
}
