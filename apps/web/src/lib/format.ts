const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Sizes as the product shows them (docs/PRODUCT.md#file-sizes): Bytes, KB, MB, GB, TB with two decimals (1024-based). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${value.toFixed(2)} ${UNITS[exponent]}`;
}

/** The preview cards show sizes in KB (docs/PRODUCT.md#file-sizes). */
export const formatKilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
