import { z } from 'zod';

// Building blocks of the environment schema, shared by each concern's variables.

export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const bytes = z.coerce.number().int().positive();

/**
 * Documents a variable whose default the schema cannot show by itself (generated, derived from another
 * variable, a size in bytes). Every variable needs a description (`.describe()` or this): the README's
 * configuration table is generated from them (`node scripts/config-docs.mjs`).
 */
export const documented = <T extends z.ZodType>(schema: T, description: string, defaultText: string) =>
  schema.meta({ description, defaultText });
