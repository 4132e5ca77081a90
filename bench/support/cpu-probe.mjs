/**
 * Preloaded into every bench server (`node --import`, bench/support/child-server.ts):
 * SIGUSR2 prints the process's CPU time so far (`cpu <user µs> <system µs>`)
 * on stdout, and SIGTERM exits normally, so `--cpu-prof` writes its profile.
 */
process.on("SIGUSR2", () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`cpu ${user} ${system}\n`);
});
process.on("SIGTERM", () => process.exit(0));
