import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runProcess } from '../helpers/process.js';
import { binary, PROMETHEUS_DIR, rulesOf } from './rules.js';

/**
 * deploy/prometheus/: the rules are valid (promtool check rules), their unit tests pass
 * (promtool test rules tests/*.yml), every alert is unit-tested on both sides of `for:`,
 * and every alert links a runbook section with its four parts.
 */

const PROMTOOL = binary('promtool');
if (!PROMTOOL) {
  console.warn(
    'promtool tests of deploy/prometheus/ skipped: no promtool (apt-get install prometheus).',
  );
}

const alerts = rulesOf('alerts.yml');
const TEST_FILES = readdirSync(join(PROMETHEUS_DIR, 'tests'))
  .filter((file) => file.endsWith('.yml'))
  .map((file) => join('tests', file));

interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: { exp_labels?: Record<string, string>; exp_annotations?: Record<string, string> }[];
}

const alertTests: AlertTest[] = TEST_FILES.flatMap((file) => {
  const parsed = parse(readFileSync(join(PROMETHEUS_DIR, file), 'utf8')) as {
    tests: { alert_rule_test?: AlertTest[] }[];
  };
  return parsed.tests.flatMap((test) => test.alert_rule_test ?? []);
});

/** GitHub's anchor of a heading: lower case, spaces to dashes, punctuation dropped. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

describe.skipIf(!PROMTOOL)('deploy/prometheus with promtool', () => {
  it('promtool check rules passes for rules.yml and alerts.yml', async () => {
    const run = await runProcess(PROMTOOL!, ['check', 'rules', 'rules.yml', 'alerts.yml'], {
      cwd: PROMETHEUS_DIR,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('promtool test rules passes for every test file', async () => {
    expect(TEST_FILES.length).toBeGreaterThanOrEqual(2);
    const run = await runProcess(PROMTOOL!, ['test', 'rules', ...TEST_FILES], {
      cwd: PROMETHEUS_DIR,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.match(/SUCCESS/g)).toHaveLength(TEST_FILES.length);
  });
});

describe('deploy/prometheus alerts', () => {
  it('every alert is unit-tested: quiet before for: has passed, firing with labels and annotations after', () => {
    expect(alerts.length).toBeGreaterThanOrEqual(13);
    const untested: string[] = [];
    for (const rule of alerts) {
      const tests = alertTests.filter((test) => test.alertname === rule.alert);
      const quiet = tests.some((test) => (test.exp_alerts ?? []).length === 0);
      const firing = tests.filter((test) => (test.exp_alerts ?? []).length > 0);
      const exact = firing.some((test) =>
        test.exp_alerts!.every(
          (alert) =>
            alert.exp_labels?.severity === rule.labels?.severity &&
            alert.exp_annotations?.runbook_url === rule.annotations?.runbook_url &&
            alert.exp_annotations?.summary !== undefined &&
            alert.exp_annotations?.description !== undefined,
        ),
      );
      if (!quiet || !exact) untested.push(rule.alert!);
    }
    expect(untested).toEqual([]);
  });

  it('every alert has a severity, a summary, a description and a runbook_url into deploy/runbook.md', () => {
    for (const rule of alerts) {
      expect(rule.alert, rule.expr).toMatch(/^Ordering[A-Z]\w+$/);
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook_url, rule.alert).toBe(
        `deploy/runbook.md#${rule.alert!.toLowerCase()}`,
      );
    }
  });

  it('the runbook has a section per alert with Meaning, Impact, Diagnosis and Mitigation', () => {
    const runbook = readFileSync(join(PROMETHEUS_DIR, '..', 'runbook.md'), 'utf8');
    const sections = new Map<string, string>();
    for (const part of runbook.split(/^## /m).slice(1)) {
      const [heading, ...body] = part.split('\n');
      sections.set(anchor(heading), body.join('\n'));
    }
    for (const rule of alerts) {
      const target = rule.annotations!.runbook_url!.split('#')[1];
      const section = sections.get(target);
      expect(section, `no runbook section #${target}`).toBeDefined();
      for (const part of ['Meaning', 'Impact', 'Diagnosis', 'Mitigation']) {
        expect(section, `${rule.alert}: ${part}`).toContain(`**${part}**:`);
      }
    }
    // No section for an alert that no longer exists.
    expect([...sections.keys()].sort()).toEqual(
      alerts.map((rule) => rule.alert!.toLowerCase()).sort(),
    );
  });
});
