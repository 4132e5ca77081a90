/** The calling side: A2A clients and their credentials. */
export * from "./auth.js";
