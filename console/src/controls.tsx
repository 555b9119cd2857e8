import { useEffect, useRef, useState } from 'preact/hooks';
import {
  activeUsers,
  api,
  type CartUser,
  type Control,
  type ErrorBody,
  fieldErrors,
  loadStores,
  type Store,
  userName,
} from './api';
import { when } from './format';
import type { Live } from './live';
import { FieldError, fieldId, Notice, StoreSelect } from './ui';

/** Controls (administrators): create, then verify or reject the pending ones. */
export function ControlsView({ live }: { live: Live }) {
  const [stores, setStores] = useState<Store[]>([]);
  const [pending, setPending] = useState<Control[]>([]);
  const [verified, setVerified] = useState<Control[]>([]);
  const [known, setKnown] = useState<Map<number, CartUser>>(new Map());
  const [notice, setNotice] = useState<{ text: string; kind: 'ok' | 'error' }>();
  const [fresh, setFresh] = useState<Set<number>>(new Set());

  const latest = useRef(0);
  async function load() {
    // Only the latest load is shown: an earlier one may answer after it.
    const mine = ++latest.current;
    const [open, done, users] = await Promise.all([
      api.GET('/api/v1/controls/', { params: { query: { status: 'pending', page_size: '100' } } }),
      api.GET('/api/v1/controls/', { params: { query: { status: 'verified', page_size: '20' } } }),
      activeUsers(),
    ]);
    if (mine !== latest.current) return;
    setPending(open.data?.results ?? []);
    setVerified(done.data?.results ?? []);
    setKnown((previous) => {
      const next = new Map(previous);
      for (const u of users) next.set(u.id, u);
      return next;
    });
  }

  useEffect(() => {
    loadStores().then(setStores);
    load();
  }, []);

  useEffect(() => {
    const event = live.event;
    if (!event) return;
    if (event.type === 'control.created') {
      setFresh((previous) => new Set(previous).add(event.data.control.id));
    }
    load();
  }, [live.seq]);

  const who = (id: number) => {
    const user = known.get(id);
    return user ? userName(user) : `Customer #${id}`;
  };
  const storeName = (id: number) => stores.find((s) => s.id === id)?.name ?? `Store #${id}`;

  async function verify(control: Control) {
    const { error } = await api.PATCH('/api/v1/controls/{id}/', {
      params: { path: { id: String(control.id) } },
      body: { status: 'verified' },
    });
    await load();
    setNotice(
      error
        ? { text: Object.values(fieldErrors(error as ErrorBody)).join(' '), kind: 'error' }
        : { text: `Control #${control.id} verified.`, kind: 'ok' },
    );
  }

  async function reject(control: Control) {
    const { error } = await api.DELETE('/api/v1/controls/{id}/', {
      params: { path: { id: String(control.id) } },
    });
    await load();
    setNotice(
      error
        ? { text: Object.values(fieldErrors(error as ErrorBody)).join(' '), kind: 'error' }
        : { text: `Control #${control.id} rejected.`, kind: 'ok' },
    );
  }

  return (
    <>
      <CreateControl
        stores={stores}
        onCreated={async (control) => {
          await load();
          setNotice({ text: `Control #${control.id} created.`, kind: 'ok' });
        }}
      />
      <section class="panel" aria-labelledby="pending-title">
        <h1 id="pending-title">Pending controls</h1>
        {notice && <Notice text={notice.text} kind={notice.kind} />}
        {pending.length === 0 ? (
          <p class="empty">No pending controls.</p>
        ) : (
          <ul class="controls">
            {pending.map((control) => (
              <li
                key={control.id}
                class={fresh.has(control.id) ? 'control fresh' : 'control'}
                data-control={control.id}
              >
                <div class="control-head">
                  <strong>Control #{control.id}</strong>
                  {control.is_random && <span class="badge warn">Random</span>}
                  {fresh.has(control.id) && <span class="badge new">New</span>}
                </div>
                <div>
                  {who(control.user)} · {storeName(control.store)} · carts{' '}
                  {control.carts.map((c) => `#${c}`).join(', ') || '—'}
                </div>
                <div class="sub">Created {when(control.created)}</div>
                <div class="actions">
                  <button type="button" onClick={() => verify(control)}>
                    Verify<span class="visually-hidden"> control #{control.id}</span>
                  </button>
                  <button type="button" class="danger" onClick={() => reject(control)}>
                    Reject<span class="visually-hidden"> control #{control.id}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="panel" aria-labelledby="verified-title">
        <h2 id="verified-title">Recently verified</h2>
        {verified.length === 0 ? (
          <p class="empty">None yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Control</th>
                <th scope="col">Customer</th>
                <th scope="col">Store</th>
                <th scope="col">Carts</th>
                <th scope="col">Verified</th>
              </tr>
            </thead>
            <tbody>
              {verified.map((control) => (
                <tr key={control.id} data-control={control.id}>
                  <th scope="row">
                    #{control.id} {control.is_random && <span class="badge warn">Random</span>}
                  </th>
                  <td>{who(control.user)}</td>
                  <td>{storeName(control.store)}</td>
                  <td>{control.carts.map((c) => `#${c}`).join(', ')}</td>
                  <td>{when(control.verified_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function CreateControl(props: { stores: Store[]; onCreated: (control: Control) => void }) {
  const [gln, setGln] = useState('');
  const [users, setUsers] = useState<CartUser[]>([]);
  const [user, setUser] = useState('');
  const [status, setStatus] = useState<'pending' | 'verified'>('pending');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [ids] = useState(() => ({
    store: fieldId('control-store'),
    user: fieldId('control-user'),
    status: fieldId('control-status'),
  }));
  const store = props.stores.find((s) => s.gln === gln) ?? props.stores[0];

  useEffect(() => {
    if (!store) return;
    activeUsers(store.gln).then((list) => {
      setUsers(list);
      setUser(list[0] ? String(list[0].id) : '');
    });
  }, [store?.gln]);

  async function submit(event: Event) {
    event.preventDefault();
    if (!store) return;
    const { data, error } = await api.POST('/api/v1/controls/', {
      body: { user: Number(user), store: store.id, status },
    });
    if (data) {
      setErrors({});
      props.onCreated(data);
    } else setErrors(fieldErrors(error as ErrorBody));
  }

  return (
    <section class="panel" aria-labelledby="create-title">
      <h2 id="create-title">New control</h2>
      <p class="hint">Controls every active cart of the customer in the store.</p>
      <form class="filters" onSubmit={submit}>
        <div class="field">
          <label for={ids.store}>Store</label>
          <StoreSelect
            id={ids.store}
            stores={props.stores}
            value={store?.gln ?? ''}
            onChange={setGln}
          />
          <FieldError id={`${ids.store}-error`} text={errors.store} />
        </div>
        <div class="field">
          <label for={ids.user}>Customer with an active cart</label>
          <select
            id={ids.user}
            value={user}
            onChange={(e) => setUser(e.currentTarget.value)}
            aria-describedby={`${ids.user}-error`}
          >
            {users.length === 0 && <option value="">No customer has an active cart here</option>}
            {users.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {userName(u)}
              </option>
            ))}
          </select>
          <FieldError id={`${ids.user}-error`} text={errors.user} />
        </div>
        <div class="field">
          <label for={ids.status}>Status</label>
          <select
            id={ids.status}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as 'pending' | 'verified')}
          >
            <option value="pending">Pending (check at the exit)</option>
            <option value="verified">Verified (already checked)</option>
          </select>
          <FieldError id={`${ids.status}-error`} text={errors.status} />
        </div>
        <div class="field submit">
          <button type="submit" disabled={!user}>
            Create control
          </button>
        </div>
      </form>
      <Notice text={errors['']} />
    </section>
  );
}
