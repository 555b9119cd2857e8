/** Types of scripts/build.mjs for the TypeScript that imports it. */
export function buildServer(options?: { ifStale?: boolean; root?: string }): Promise<boolean>;
