import { useEffect, useRef, useState } from 'preact/hooks';
import {
  activeUsers,
  api,
  type Cart,
  type CartUser,
  type Control,
  cartById,
  type ErrorBody,
  fieldErrors,
  loadStores,
  type Store,
  userName,
} from './api';
import { CartLines } from './carts';
import { when } from './format';
import { t } from './i18n';
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
  const [carts, setCarts] = useState<Map<number, Cart>>(new Map());

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
    const pendingList = open.data?.results ?? [];
    const verifiedList = done.data?.results ?? [];
    setPending(pendingList);
    setVerified(verifiedList);
    setKnown((previous) => {
      const next = new Map(previous);
      for (const u of users) next.set(u.id, u);
      return next;
    });
    // The carts of the controls: their lines (what is checked at the exit), and the names of
    // customers who no longer have an active cart. Pending ones fresh: lines may change.
    const wanted = [
      ...pendingList.flatMap((c) => c.carts.map((id) => [id, true] as const)),
      ...verifiedList.flatMap((c) => c.carts.slice(0, 1).map((id) => [id, false] as const)),
    ];
    const found = await Promise.all(wanted.map(([id, fresh]) => cartById(id, fresh)));
    if (mine !== latest.current) return;
    setCarts((previous) => {
      const next = new Map(previous);
      for (const cart of found) if (cart) next.set(cart.id, cart);
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

  const who = (control: Control) => {
    const user =
      known.get(control.user) ??
      control.carts.map((id) => carts.get(id)?.user).find((u) => u !== undefined);
    return user ? userName(user) : t('audit.customerN', { id: control.user });
  };
  const storeName = (id: number) => stores.find((s) => s.id === id)?.name ?? `#${id}`;

  async function verify(control: Control) {
    const { error } = await api.PATCH('/api/v1/controls/{id}/', {
      params: { path: { id: String(control.id) } },
      body: { status: 'verified' },
    });
    await load();
    setNotice(
      error
        ? { text: Object.values(fieldErrors(error as ErrorBody)).join(' '), kind: 'error' }
        : { text: t('controls.verified', { id: control.id }), kind: 'ok' },
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
        : { text: t('controls.rejected', { id: control.id }), kind: 'ok' },
    );
  }

  return (
    <>
      <CreateControl
        stores={stores}
        onCreated={async (control) => {
          await load();
          setNotice({ text: t('controls.created', { id: control.id }), kind: 'ok' });
        }}
      />
      <section class="panel" aria-labelledby="pending-title">
        <h1 id="pending-title">{t('controls.pending')}</h1>
        {notice && <Notice text={notice.text} kind={notice.kind} />}
        {pending.length === 0 ? (
          <p class="empty">{t('controls.nonePending')}</p>
        ) : (
          <ul class="controls">
            {pending.map((control) => (
              <li
                key={control.id}
                class={fresh.has(control.id) ? 'control fresh' : 'control'}
                data-control={control.id}
              >
                <div class="control-head">
                  <strong>{t('controls.control', { id: control.id })}</strong>
                  <span class={control.is_random ? 'badge warn' : 'badge'}>
                    {t(control.is_random ? 'controls.random' : 'controls.chosen')}
                  </span>
                  {fresh.has(control.id) && <span class="badge new">{t('controls.new')}</span>}
                </div>
                <div class="control-who">
                  <strong>{who(control)}</strong> · {storeName(control.store)}
                </div>
                <div class="sub">{t('controls.createdAt', { when: when(control.created) })}</div>
                {control.carts.map((id) => {
                  const cart = carts.get(id);
                  return (
                    <div class="control-cart" key={id} data-cart={id}>
                      <h3>{t('carts.linesOf', { id })}</h3>
                      {cart && <CartLines cart={cart} />}
                    </div>
                  );
                })}
                <div class="actions">
                  <button type="button" onClick={() => verify(control)}>
                    {t('controls.verify')}
                    <span class="visually-hidden">
                      {' '}
                      {t('controls.control', { id: control.id })}
                    </span>
                  </button>
                  <button type="button" class="danger" onClick={() => reject(control)}>
                    {t('controls.reject')}
                    <span class="visually-hidden">
                      {' '}
                      {t('controls.control', { id: control.id })}
                    </span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="panel" aria-labelledby="verified-title">
        <h2 id="verified-title">{t('controls.recent')}</h2>
        {verified.length === 0 ? (
          <p class="empty">{t('controls.noneYet')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('controls.col.control')}</th>
                <th scope="col">{t('controls.col.customer')}</th>
                <th scope="col">{t('controls.col.store')}</th>
                <th scope="col">{t('controls.col.carts')}</th>
                <th scope="col">{t('controls.col.verified')}</th>
              </tr>
            </thead>
            <tbody>
              {verified.map((control) => (
                <tr key={control.id} data-control={control.id}>
                  <th scope="row">
                    #{control.id}{' '}
                    {control.is_random && <span class="badge warn">{t('controls.random')}</span>}
                  </th>
                  <td>{who(control)}</td>
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
      <h2 id="create-title">{t('controls.newTitle')}</h2>
      <p class="hint">{t('controls.newHint')}</p>
      <form class="filters" onSubmit={submit}>
        <div class="field">
          <label for={ids.store}>{t('filter.store')}</label>
          <StoreSelect
            id={ids.store}
            stores={props.stores}
            value={store?.gln ?? ''}
            onChange={setGln}
          />
          <FieldError id={`${ids.store}-error`} text={errors.store} />
        </div>
        <div class="field">
          <label for={ids.user}>{t('controls.customer')}</label>
          <select
            id={ids.user}
            value={user}
            onChange={(e) => setUser(e.currentTarget.value)}
            aria-describedby={`${ids.user}-error`}
          >
            {users.length === 0 && <option value="">{t('controls.noCustomer')}</option>}
            {users.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {userName(u)}
              </option>
            ))}
          </select>
          <FieldError id={`${ids.user}-error`} text={errors.user} />
        </div>
        <div class="field">
          <label for={ids.status}>{t('controls.status')}</label>
          <select
            id={ids.status}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as 'pending' | 'verified')}
          >
            <option value="pending">{t('controls.statusPending')}</option>
            <option value="verified">{t('controls.statusVerified')}</option>
          </select>
          <FieldError id={`${ids.status}-error`} text={errors.status} />
        </div>
        <div class="field submit">
          <button type="submit" disabled={!user}>
            {t('controls.create')}
          </button>
        </div>
      </form>
      <Notice text={errors['']} />
    </section>
  );
}
