/**
 * Brand-based `instanceof` for the SDK's error classes. Each class names
 * itself in a static `brand`; an instance carries the brands of its class
 * chain under a `Symbol.for` key. `instanceof` then works across two copies of
 * the SDK in one process (two bundles, ESM and CJS side by side), which
 * prototype identity does not: a2a-js once bundled each entry point with its
 * own copy of its error classes, so `instanceof` failed across them and every
 * typed error went out as an internal error. A class may also list `matches`:
 * brands of classes it stands for without being their ancestor (a view onto
 * another hierarchy).
 */

const BRANDS = Symbol.for("@novaos/client-sdk/error-brands");

export interface BrandedClass {
  readonly brand: string;
  readonly matches?: readonly string[];
}

/** Records the brands of `ctor` and its ancestors on `instance`. */
export function stampBrands(instance: object, ctor: unknown): void {
  const brands: string[] = [];
  for (let c = ctor; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, "brand")) brands.push((c as unknown as BrandedClass).brand);
  }
  Object.defineProperty(instance, BRANDS, { value: brands, enumerable: false });
}

/**
 * `value instanceof target`: by brand when `target` declares its own brand,
 * by prototype for user subclasses that do not.
 */
export function hasBrand(target: BrandedClass & (abstract new (...args: never[]) => unknown), value: unknown): boolean {
  if (!Object.hasOwn(target, "brand")) return Function.prototype[Symbol.hasInstance].call(target, value);
  const brands = (value as { [BRANDS]?: readonly string[] } | null)?.[BRANDS];
  if (!Array.isArray(brands)) return false;
  if (brands.includes(target.brand)) return true;
  return Object.hasOwn(target, "matches") && (target.matches ?? []).some((b) => brands.includes(b));
}
