/**
 * The path (`status`, `address.city`, `items.2.name`) of the first member an object of a JSON
 * text repeats, or null. `JSON.parse` keeps the last of two members of one name, silently: a body
 * `{"status":"sold","status":"available"}` would be read as available while a proxy, a log or a
 * signature check reading the first saw sold. Read from the text in one pass, for text that
 * already parsed (so it is well-formed); names are compared as decoded (`"st\u0061tus"` is
 * `status`).
 */
export function repeatedMemberPath(text: string): string | null {
  /** An object (its member names so far) or an array (the index of the current element). */
  type Frame = { names: Set<string> | null; at: string | number; expectsName: boolean };
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c /* \ */) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.names && top.expectsName) {
        const name = escaped
          ? (JSON.parse(text.slice(start, i + 1)) as string)
          : text.slice(start + 1, i);
        if (top.names.has(name)) {
          return [...stack.slice(0, -1).map((frame) => String(frame.at)), name].join('.');
        }
        top.names.add(name);
        top.at = name;
        top.expectsName = false;
      }
    } else if (c === 0x7b /* { */) {
      stack.push({ names: new Set(), at: '', expectsName: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ names: null, at: 0, expectsName: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.names) top.expectsName = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}
