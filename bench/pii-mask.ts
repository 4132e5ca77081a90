/**
 * `npx tsx bench/pii-mask.ts`: how long `maskPii` takes on adversarial text,
 * per unit repeated to 1 MB and to 10 MB. Linear masking keeps the ratio of
 * the two near 10; a pattern that backtracks shows a much larger one (or, as
 * the regular-expression phone and email patterns did, a RangeError).
 * Prints one table; the best of three runs per size.
 */
import { maskPii } from "../src/security/pii.js";
import { ADVERSARIAL_PII_UNITS } from "../test/security/support/adversarial-pii.js";

function best(text: string): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    maskPii(text);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const rows = ADVERSARIAL_PII_UNITS.map((unit) => {
  const oneMb = best(unit.repeat(Math.ceil(1_000_000 / unit.length)));
  const tenMb = best(unit.repeat(Math.ceil(10_000_000 / unit.length)));
  return {
    unit: JSON.stringify(unit),
    "1 MB (ms)": Math.round(oneMb),
    "10 MB (ms)": Math.round(tenMb),
    ratio: (tenMb / oneMb).toFixed(1),
  };
});
console.table(rows);
