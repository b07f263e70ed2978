/**
 * The health module's face: `/healthz` (the process answers) and `/readyz` (every registered readiness probe:
 * database, blob store, event bus, the AI services; details for admins only). Modules add their probes to the map
 * the composition root hands around; the admin's system screen runs the same probes (`runProbes`).
 */
export { registerHealthRoutes as createHealthModule, runProbes, type ReadinessProbe } from './health.routes';
