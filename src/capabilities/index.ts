/** Filled in by its issue. */
export {};
