/**
 * The health module's face: `/healthz` (the process answers) and `/readyz` (every registered readiness probe:
 * database, blob store, event bus, the AI services; details for admins only). Modules add their probes to the map
 * the composition root hands around; the admin's system screen runs the same probes (`runProbes`).
 *
 * `health.routes.ts` holds both routes (outside the endpoint table, declared the same way) and `runProbes`: every probe
 * at once, each timed; a probe that throws is an `error` check. `/readyz` answers 503 when any fails; only callers who
 * may see system details (`canSeeSystemDetails`) get more than each probe's status. `/metrics` is `plugins/metrics.ts`.
 * Both routes are public and log at `warn` only, so probes do not fill the log.
 */
export { registerHealthRoutes as createHealthModule, runProbes, type ReadinessProbe } from './health.routes';
