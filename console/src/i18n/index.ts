import { de } from './de';
import { en, type MessageKey } from './en';

/*
 * The console's two languages: plain message catalogues (en.ts, de.ts; a test checks that
 * both hold every key and that the screens use no other). The browser's language picks one
 * (German for `de*`), the switch in the top bar overrides it and is remembered.
 */

export type Language = 'en' | 'de';
export type { MessageKey };

const CATALOGUES: Record<Language, Record<MessageKey, string>> = { en, de };
const KEY = 'ordering-console.language';

function stored(): Language | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'de' || value === 'en' ? value : null;
  } catch {
    return null;
  }
}

const fromBrowser = (): Language =>
  (navigator.languages?.[0] ?? navigator.language ?? '').toLowerCase().startsWith('de')
    ? 'de'
    : 'en';

let current: Language = stored() ?? fromBrowser();
const listeners = new Set<(language: Language) => void>();

export const language = () => current;

/**
 * The BCP 47 tag for `Intl`: German as in Germany; English as the browser has it (en-GB,
 * en-US…), else British English (the stores are in Europe: day before month, 24 hours).
 */
export function locale(): string {
  if (current === 'de') return 'de-DE';
  const browser = navigator.languages?.find((l) => l.toLowerCase().startsWith('en'));
  return browser ?? 'en-GB';
}

export function setLanguage(language: Language): void {
  current = language;
  try {
    localStorage.setItem(KEY, language);
  } catch {
    // Private mode: the choice lasts for the page.
  }
  document.documentElement.lang = language;
  for (const listener of listeners) listener(language);
}

export function onLanguage(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message of the current language, with `{name}` placeholders filled in. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const text = CATALOGUES[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
