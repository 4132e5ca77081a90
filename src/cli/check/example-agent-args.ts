/**
 * The `check` options that exercise examples/example-agent.ts fully: `echo`
 * finishes, `storyteller` keeps working for a few seconds, `approval` pauses
 * on INPUT_REQUIRED. `make conformance`, the tests and docs/cli.md use them.
 */
export const exampleAgentCheckArgs: readonly string[] = [
  "--skill",
  "echo",
  "--slow-skill",
  "storyteller",
  "--slow-text",
  "a lighthouse",
  "--input-skill",
  "approval",
  "--input-text",
  "a trip to Lisbon",
];
