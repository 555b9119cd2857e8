import type { ComponentChildren } from 'preact';
import type { Store } from './api';

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
          {s.name} ({s.gln})
        </option>
      ))}
    </select>
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
  noun: string;
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
        Previous
      </button>
      <span>
        Page {page} of {pages} ({props.count} {props.noun})
      </span>
      <button
        type="button"
        class="secondary"
        disabled={page >= pages}
        onClick={() => props.onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
