// How long the tests that start processes (wrangler commands, throwaway local runs, npm start,
// Chromium, tsc) wait, sized for a busy 2-core machine rather than a quiet one: with other work
// keeping the load average near 9, `npm run db:migrate:local` across the shards took 92 s, a
// throwaway local run about 105 s to answer its first request, and a type-check 52 s, each
// several times its time on a quiet machine. Every wait here is about three times those figures.

/** A throwaway local run or `npm start` answering its first request. */
export const STARTUP_MS = 5 * 60_000;

/** A test that starts processes, from start to end. */
export const PROCESS_TEST_MS = 5 * 60_000;

/** A hook that starts a local run (and Chromium) and loads its data. */
export const PROCESS_HOOK_MS = 8 * 60_000;

/** One command of a documented example, run in a shell against a local run. */
export const COMMAND_MS = 2 * 60_000;
