import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, "test/fleet/**"] },
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
