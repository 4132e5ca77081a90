import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const src = fileURLToPath(new URL("./src/", import.meta.url));

export default defineConfig({
  // The examples import the package by name (as tsconfig.json's paths map it): tests see the source.
  resolve: {
    alias: [
      { find: /^@novaos\/client-sdk$/, replacement: `${src}index.ts` },
      { find: /^@novaos\/client-sdk\/(.+)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/fleet/**", "test/package/**"],
        },
      },
      {
        // The package as published: built and packed once (test/package/support/build.ts), then loaded, measured
        // and installed by the tests of test/package.
        extends: true,
        test: {
          name: "package",
          include: ["test/package/**/*.test.ts"],
          globalSetup: ["test/package/support/build.ts"],
        },
      },
      {
        // Only a run that includes these files starts the PostgreSQL cluster.
        extends: true,
        test: {
          name: "postgres",
          include: ["test/fleet/**/*.test.ts"],
          globalSetup: ["test/fleet/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
