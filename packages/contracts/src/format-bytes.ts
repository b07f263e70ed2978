/**
 * Byte counts as people read them, one implementation for server and web. Zod-free on purpose: the
 * web imports it as `@atrium/contracts/format-bytes` without pulling the schemas in.
 */
const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

function scale(bytes: number): { value: number; unit: number } {
  if (!Number.isFinite(bytes) || bytes <= 0) return { value: 0, unit: 0 };
  const unit = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  return { value: bytes / 1024 ** unit, unit };
}

/**
 * Sizes as the spec shows them — Bytes, KB, MB, GB, TB (1024-based) with two decimals — but whole
 * byte counts stay whole, in the singular for one: `0 Bytes`, `1 Byte`, `512 Bytes`, `1.00 KB`, `5.25 MB`.
 */
export function formatBytes(bytes: number): string {
  const { value, unit } = scale(bytes);
  if (unit === 0) return value === 1 ? '1 Byte' : `${value} Bytes`;
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}

/**
 * The `readableSize` of the spec's stats answer, unchanged for its clients: two decimals in every unit
 * (`512.00 Bytes`), `0 Bytes` for nothing. Screens show `formatBytes(sizeInBytes)` instead.
 */
export function readableSize(bytes: number): string {
  const { value, unit } = scale(bytes);
  return value === 0 ? '0 Bytes' : `${value.toFixed(2)} ${UNITS[unit]}`;
}
