/**
 * Finds versions written in code outside an API's features table: quoted `X.Y` literals,
 * whole-word `V1_xx` constants and versions built in place (`parseVersion(`, `makeVersion(`).
 * Comments are blanked first (prose may say `1.28`, code may not); strings and template
 * literals are kept whole so a `//` inside one is not a comment. Used by each service's
 * features test.
 */

// Microversions start at 1.0; a float literal such as '0.0' is no version.
const RULES: readonly (readonly [RegExp, string])[] = [
  [/(['"`])[1-9]\d*\.\d+\1/g, 'a version literal'],
  [/\bV\d+_\d+\b/g, 'a version constant'],
  [/\b(?:parseVersion|tryParseVersion|makeVersion)\s*\(/g, 'a version built in place'],
];

/** The code of a source file with its comments blanked (newlines kept, so lines still count). */
export function codeOnly(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 2;
      const stop = end <= 1 ? text.length : end;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `file:line: what (text); <hint>` for every version written in the code of `text`. */
export function versionsWritten(file: string, text: string, hint: string): string[] {
  const found: string[] = [];
  codeOnly(text)
    .split('\n')
    .forEach((line, index) => {
      for (const [pattern, what] of RULES) {
        for (const match of line.matchAll(pattern)) {
          found.push(`${file}:${index + 1}: ${what} (${match[0]}); ${hint}`);
        }
      }
    });
  return found;
}
