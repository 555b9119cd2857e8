import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Store } from './api';
import { datePattern, dateText, num, parseDate } from './format';
import { t } from './i18n';

let nextId = 0;
/** A stable id for a label and its control. */
export const fieldId = (name: string) => `f-${name}-${++nextId}`;

/** A message next to a field, announced to screen readers. */
export function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p class="field-error" id={id} role="alert">
      {text}
    </p>
  );
}

/** A form-level message (`non_field_errors`, `detail`) or a confirmation. */
export function Notice({ text, kind = 'error' }: { text?: string; kind?: 'error' | 'ok' }) {
  if (!text) return null;
  return (
    <p class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

export function StoreSelect(props: {
  id: string;
  stores: Store[];
  value: string;
  onChange: (gln: string) => void;
  allLabel?: string;
}) {
  return (
    <select
      id={props.id}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    >
      {props.allLabel !== undefined && <option value="">{props.allLabel}</option>}
      {props.stores.map((s) => (
        <option key={s.gln} value={s.gln}>
          {s.name}
        </option>
      ))}
    </select>
  );
}

/**
 * A date typed in the language's form ("31.01.2020", "31/01/2020"), whatever the browser's
 * own date picker would show; `value` and `onChange` are `YYYY-MM-DD` (or '' for none).
 */
export function DateField(props: {
  label: string;
  value: string;
  onChange: (iso: string) => void;
}) {
  const [id] = useState(() => fieldId('date'));
  const [text, setText] = useState(dateText(props.value));
  const [wrong, setWrong] = useState(false);
  const pattern = datePattern();
  // A new value from outside (or a new language) shows in the field's form.
  useEffect(() => {
    if (parseDate(text) !== props.value) setText(dateText(props.value));
  }, [props.value, pattern]);

  function input(value: string) {
    setText(value);
    if (value.trim() === '') {
      setWrong(false);
      if (props.value) props.onChange('');
      return;
    }
    const iso = parseDate(value);
    setWrong(iso === null);
    if (iso && iso !== props.value) props.onChange(iso);
  }

  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        class="date"
        inputMode="numeric"
        autocomplete="off"
        placeholder={pattern}
        value={text}
        aria-invalid={wrong && text.length >= pattern.length}
        aria-describedby={`${id}-hint`}
        onInput={(e) => input(e.currentTarget.value)}
      />
      <span class="visually-hidden" id={`${id}-hint`}>
        {t('date.hint', { pattern })}
      </span>
    </div>
  );
}

export function Section(props: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** Previous / Next over pages of a list, with where the reader is. */
export function Pager(props: {
  label: string;
  page: number;
  pages: number;
  count: number;
  onPage: (page: number) => void;
}) {
  const { page, pages } = props;
  return (
    <nav class="pager" aria-label={props.label}>
      <button
        type="button"
        class="secondary"
        disabled={page <= 1}
        onClick={() => props.onPage(page - 1)}
      >
        {t('pager.previous')}
      </button>
      <span>
        {t('pager.where', { page: num(page), pages: num(pages), count: num(props.count) })}
      </span>
      <button
        type="button"
        class="secondary"
        disabled={page >= pages}
        onClick={() => props.onPage(page + 1)}
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
