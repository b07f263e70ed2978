const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Sizes as the product shows them (docs/PRODUCT.md#file-sizes): Bytes, KB, MB, GB, TB with two decimals (1024-based). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  return `${(bytes / 1024 ** exponent).toFixed(2)} ${UNITS[exponent]}`;
}
