/**
 * JSON Schema `pattern`s on RE2 (re2js), which matches in linear time, so no
 * pattern can hang the process. Lookarounds and backreferences, which RE2
 * cannot run in linear time and which the JSON Schema authors advise against
 * in portable patterns, do not compile.
 */
import { RE2JS } from "re2js";

/** JSON Schema's ECMA-262 `\uXXXX` and `\u{X…}` escapes, written the way RE2 reads them (`\x{…}`). */
function toRe2Syntax(pattern: string): string {
  return pattern.replace(/(?<!\\)((?:\\\\)*)\\u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/g, "$1\\x{$2$3}");
}

/** A pattern compiled for RE2; throws where RE2 refuses it. */
export function compileRe2Pattern(pattern: string): RE2JS {
  return RE2JS.compile(toRe2Syntax(pattern));
}
