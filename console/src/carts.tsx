import { useEffect, useRef, useState } from 'preact/hooks';
import {
  activeUsers,
  api,
  type Cart,
  type CartPage,
  type CartUser,
  type ErrorBody,
  errorText,
  loadStores,
  type Me,
  type Store,
  userName,
} from './api';
import { dateRange, when } from './format';
import type { Live } from './live';
import { fieldId, Notice, Pager, StoreSelect } from './ui';

const PAGE_SIZE = 20;
type Tri = '' | 'True' | 'False';

interface Filters {
  gln: string;
  checkout: Tri;
  error: Tri;
  from: string;
  to: string;
  user: string;
}

export function CartsView({ me, live }: { me: Me; live: Live }) {
  const [stores, setStores] = useState<Store[]>([]);
  const [filters, setFilters] = useState<Filters>({
    gln: localStorage.getItem('ordering-console.store') ?? '',
    checkout: '',
    error: '',
    from: '',
    to: '',
    user: '',
  });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<CartPage | null>(null);
  const [users, setUsers] = useState<CartUser[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const [notice, setNotice] = useState<{ text: string; kind: 'ok' | 'error' }>();
  const [ids] = useState(() => ({
    store: fieldId('store'),
    checkout: fieldId('checkout'),
    error: fieldId('error'),
    from: fieldId('from'),
    to: fieldId('to'),
    user: fieldId('user'),
  }));

  useEffect(() => {
    loadStores().then((list) => {
      setStores(list);
      if (!list.some((s) => s.gln === filters.gln) && list[0]) set({ gln: list[0].gln });
    });
  }, []);

  const store = stores.find((s) => s.gln === filters.gln);

  const latest = useRef(0);
  async function load() {
    if (!filters.gln) return;
    // Only the latest load is shown: an earlier one may answer after it.
    const mine = ++latest.current;
    const { data } = await api.GET('/api/v1/carts/', {
      params: {
        query: {
          active: 'True',
          gln: filters.gln,
          ordering: '-last_activity',
          checkout: filters.checkout || undefined,
          checkout_availability_error: filters.error || undefined,
          user: filters.user || undefined,
          ...dateRange(filters.from, filters.to),
          page: String(page),
          page_size: String(PAGE_SIZE),
        },
      },
    });
    if (mine !== latest.current) return;
    if (data) setData(data);
    else if (page > 1) setPage(1); // the page went away (carts became inactive)
  }

  useEffect(() => {
    load();
  }, [filters, page]);

  useEffect(() => {
    if (filters.gln) activeUsers(filters.gln).then(setUsers);
  }, [filters.gln]);

  useEffect(() => {
    const event = live.event;
    if (!event) return;
    if (event.type === 'cart.checked_out') {
      setFresh((previous) => new Set(previous).add(event.data.cart));
    }
    load();
    if (filters.gln) activeUsers(filters.gln).then(setUsers);
  }, [live.seq]);

  function set(change: Partial<Filters>) {
    if (change.gln) localStorage.setItem('ordering-console.store', change.gln);
    setFilters((previous) => ({ ...previous, ...change }));
    setPage(1);
  }

  async function control(cart: Cart) {
    if (!store) return;
    const { data, error } = await api.POST('/api/v1/controls/', {
      body: { user: cart.user.id, store: store.id, status: 'pending' },
    });
    setNotice(
      data
        ? { text: `Control #${data.id} created for ${userName(cart.user)}.`, kind: 'ok' }
        : { text: errorText(error as ErrorBody), kind: 'error' },
    );
    load();
  }

  const pages = data ? Math.max(1, Math.ceil(data.count / PAGE_SIZE)) : 1;
  return (
    <section class="panel" aria-labelledby="carts-title">
      <h1 id="carts-title">Active carts{store ? ` · ${store.name}` : ''}</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Cart filters">
        <div class="field">
          <label for={ids.store}>Store</label>
          <StoreSelect
            id={ids.store}
            stores={stores}
            value={filters.gln}
            onChange={(gln) => set({ gln, user: '' })}
          />
        </div>
        <div class="field">
          <label for={ids.checkout}>Checked out</label>
          <select
            id={ids.checkout}
            value={filters.checkout}
            onChange={(e) => set({ checkout: e.currentTarget.value as Tri })}
          >
            <option value="">All</option>
            <option value="True">Checked out</option>
            <option value="False">Still in the store</option>
          </select>
        </div>
        <div class="field">
          <label for={ids.error}>Availability error</label>
          <select
            id={ids.error}
            value={filters.error}
            onChange={(e) => set({ error: e.currentTarget.value as Tri })}
          >
            <option value="">All</option>
            <option value="True">With error</option>
            <option value="False">Without error</option>
          </select>
        </div>
        <div class="field">
          <label for={ids.from}>Created from</label>
          <input
            id={ids.from}
            type="date"
            value={filters.from}
            onChange={(e) => set({ from: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={ids.to}>Created to</label>
          <input
            id={ids.to}
            type="date"
            value={filters.to}
            onChange={(e) => set({ to: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={ids.user}>Customer</label>
          <select
            id={ids.user}
            value={filters.user}
            onChange={(e) => set({ user: e.currentTarget.value })}
          >
            <option value="">All customers</option>
            {users.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {userName(u)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {notice && <Notice text={notice.text} kind={notice.kind} />}
      {data && data.count === 0 && <p class="empty">No active carts match.</p>}
      {data && data.count > 0 && (
        <table class="carts">
          <caption class="visually-hidden">Active carts, newest activity first</caption>
          <thead>
            <tr>
              <th scope="col">Cart</th>
              <th scope="col">Customer</th>
              <th scope="col">Organization</th>
              <th scope="col" class="num">
                Lines
              </th>
              <th scope="col" class="num">
                Quantity
              </th>
              <th scope="col">Last activity</th>
              <th scope="col">Status</th>
              <th scope="col">Controls</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.results.map((cart) => (
              <CartRows
                key={cart.id}
                cart={cart}
                open={open === cart.id}
                fresh={fresh.has(cart.id)}
                onToggle={() => setOpen(open === cart.id ? null : cart.id)}
                onControl={me.is_admin ? () => control(cart) : undefined}
                live={live}
              />
            ))}
          </tbody>
        </table>
      )}
      {data && data.count > PAGE_SIZE && (
        <Pager
          label="Pages"
          page={page}
          pages={pages}
          count={data.count}
          noun="carts"
          onPage={setPage}
        />
      )}
    </section>
  );
}

function status(cart: Cart): string {
  if (cart.checkout) return `Checked out · order ${cart.checkout.order_number}`;
  if (cart.checkout_availability_error) return 'Availability error';
  return 'In the store';
}

function CartRows(props: {
  cart: Cart;
  open: boolean;
  fresh: boolean;
  onToggle: () => void;
  onControl?: () => void;
  live: Live;
}) {
  const { cart } = props;
  const detailId = `cart-${cart.id}-detail`;
  return (
    <>
      <tr class={props.fresh ? 'fresh' : undefined} data-cart={cart.id}>
        <th scope="row">
          #{cart.id}
          <div class="sub">{cart.customer_order_number}</div>
        </th>
        <td>{userName(cart.user)}</td>
        <td>{cart.organization.name}</td>
        <td class="num">{cart.items_count}</td>
        <td class="num">{cart.total_quantity}</td>
        <td>{when(cart.last_activity)}</td>
        <td>
          <span
            class={
              cart.checkout ? 'badge ok' : cart.checkout_availability_error ? 'badge warn' : 'badge'
            }
          >
            {status(cart)}
          </span>
          {props.fresh && <span class="badge new">New</span>}
        </td>
        <td>{cart.controls.length ? cart.controls.map((c) => `#${c}`).join(', ') : '—'}</td>
        <td class="actions">
          <button
            type="button"
            class="secondary"
            aria-expanded={props.open}
            aria-controls={detailId}
            onClick={props.onToggle}
          >
            {props.open ? 'Close' : 'Open'}
            <span class="visually-hidden"> cart #{cart.id}</span>
          </button>
          {props.onControl && (
            <button type="button" onClick={props.onControl}>
              Control<span class="visually-hidden"> cart #{cart.id}</span>
            </button>
          )}
        </td>
      </tr>
      {props.open && (
        <tr id={detailId} class="detail">
          <td colSpan={9}>
            <CartDetail id={cart.id} live={props.live} />
          </td>
        </tr>
      )}
    </>
  );
}

/** A cart's lines and checkout record, fetched fresh when opened and on live events. */
function CartDetail({ id, live }: { id: number; live: Live }) {
  const [cart, setCart] = useState<Cart | null>(null);
  useEffect(() => {
    api.GET('/api/v1/carts/{id}/', { params: { path: { id: String(id) } } }).then(({ data }) => {
      if (data) setCart(data);
    });
  }, [id, live.seq]);
  if (!cart) return <p>Loading cart #{id}…</p>;
  return (
    <div class="cart-detail">
      <div>
        <h3>Lines of cart #{cart.id}</h3>
        {cart.items.length === 0 ? (
          <p>No lines.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Part number</th>
                <th scope="col" class="num">
                  Quantity
                </th>
                <th scope="col">Scanned</th>
              </tr>
            </thead>
            <tbody>
              {cart.items.map((item) => (
                <tr key={item.id}>
                  <td>{item.part_number}</td>
                  <td class="num">{item.quantity}</td>
                  <td>{when(item.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div>
        <h3>Checkout</h3>
        {cart.checkout ? (
          <dl>
            <dt>Order number</dt>
            <dd>{cart.checkout.order_number}</dd>
            <dt>Order id</dt>
            <dd>{cart.checkout.order_id}</dd>
            <dt>Checked out</dt>
            <dd>{when(cart.checkout.created)}</dd>
            <dt>Timed out</dt>
            <dd>{cart.checkout.timed_out ? 'Yes: upstream queued the order' : 'No'}</dd>
          </dl>
        ) : (
          <p>Not checked out yet.</p>
        )}
        <dl>
          <dt>Order mark</dt>
          <dd>{cart.order_mark || '—'}</dd>
          <dt>Reference</dt>
          <dd>{cart.reference ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{when(cart.created)}</dd>
        </dl>
      </div>
    </div>
  );
}
