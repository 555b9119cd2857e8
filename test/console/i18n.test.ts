import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { de } from '../../console/src/i18n/de.js';
import { en } from '../../console/src/i18n/en.js';

/*
 * The console's two catalogues hold the same keys, none empty, with the same placeholders;
 * and every key a screen asks for (`t('…')`, and the `audit.kind.*`, `day.*`… families the
 * screens build) is in them. TypeScript checks this too; this test says which key.
 */

const SRC = join(process.cwd(), 'console', 'src');
const sources = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.tsx') || file.endsWith('.ts'))
  .filter((file) => !file.startsWith('i18n') && file !== 'api-schema.ts')
  .map((file) => [file, readFileSync(join(SRC, file), 'utf8')] as const);

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('console message catalogues', () => {
  it('have the same keys in English and German', () => {
    const english = Object.keys(en);
    const german = Object.keys(de);
    expect(
      english.filter((key) => !german.includes(key)),
      'missing in de.ts',
    ).toEqual([]);
    expect(
      german.filter((key) => !english.includes(key)),
      'missing in en.ts',
    ).toEqual([]);
  });

  it('have no empty message, and the same placeholders in both', () => {
    for (const [key, text] of Object.entries(en)) {
      const german = (de as Record<string, string>)[key];
      expect(text.trim(), key).not.toBe('');
      expect(german?.trim(), key).not.toBe('');
      expect(placeholders(german ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('hold every key the screens use', () => {
    const used = new Map<string, string>();
    for (const [file, text] of sources) {
      for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) used.set(match[1], file);
      // Keys chosen from a value: `t(\`audit.kind.${kind}\`)` and the like.
      for (const match of text.matchAll(/\bt\(\s*`([a-z.]+)\$\{/g)) used.set(`${match[1]}*`, file);
    }
    expect(used.size).toBeGreaterThan(100);
    const unknown = [...used]
      .filter(([key]) =>
        key.endsWith('*')
          ? !Object.keys(en).some((k) => k.startsWith(key.slice(0, -1)))
          : !(key in en) || !(key in de),
      )
      .map(([key, file]) => `${file}: ${key}`);
    expect(unknown).toEqual([]);
  });

  it('leave no English text in the screens outside the catalogues', () => {
    // JSX text: a capitalised word between tags, e.g. `>Log in<` (names, codes and
    // punctuation are allowed).
    const literal = />\s*([A-Z][a-z]+(?: [a-z]+)*[.…:]?)\s*</g;
    // The languages' own names stay as they are in every language (the switch).
    const endonyms = ['Deutsch', 'English'];
    const found = sources.flatMap(([file, text]) =>
      [...text.matchAll(literal)]
        .filter((m) => !endonyms.includes(m[1]))
        .map((m) => `${file}: ${m[1]}`),
    );
    expect(found).toEqual([]);
  });
});
