import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** deploy/prometheus/ of this repository. */
export const PROMETHEUS_DIR = join(import.meta.dirname, '..', '..', 'deploy', 'prometheus');

export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The rules of one of deploy/prometheus/'s rule files, every group's in order. */
export function rulesOf(file: 'alerts.yml' | 'rules.yml'): Rule[] {
  const parsed = parse(readFileSync(join(PROMETHEUS_DIR, file), 'utf8')) as {
    groups: { rules: Rule[] }[];
  };
  return parsed.groups.flatMap((group) => group.rules);
}

/** The path of a Debian binary (`prometheus`, `promtool`), or undefined when it is not installed. */
export function binary(name: string): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}
