// Route patterns with their parameters filled in, for the page table (pages.ts) and the endpoint table (endpoint.ts).
// zod-free: the public pages use it too.

/** A pattern's parameter values: `undefined` and `null` are "not given". */
export type PathParams = Record<string, string | null | undefined>;

/**
 * `pattern` (`:name` parameters, Fastify's and React Router's syntax; `/:name?` an optional segment) with each
 * parameter replaced by its value, encoded. An optional segment not given is left out, slash and all; a required
 * parameter not given is a programming error (it throws `<pattern> needs <name>`).
 */
export function fillPath(pattern: string, params: PathParams = {}): string {
  return pattern.replace(/(\/?):(\w+)(\?)?/g, (_match, slash: string, name: string, optional?: string) => {
    const value = params[name];
    if (value === undefined || value === null) {
      if (optional) return '';
      throw new Error(`${pattern} needs ${name}`);
    }
    return `${slash}${encodeURIComponent(value)}`;
  });
}
