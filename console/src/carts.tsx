import { useEffect, useRef, useState } from 'preact/hooks';
import {
  activeUsers,
  api,
  type Cart,
  type CartPage,
  type CartUser,
  cartById,
  type ErrorBody,
  errorText,
  loadStores,
  type Me,
  productName,
  type Store,
  userName,
} from './api';
import { dateRange, num, when } from './format';
import { t } from './i18n';
import type { Live } from './live';
import { DateField, fieldId, Notice, Pager, StoreSelect } from './ui';

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
        ? {
            text: t('carts.controlCreated', { id: data.id, name: userName(cart.user) }),
            kind: 'ok',
          }
        : { text: errorText(error as ErrorBody), kind: 'error' },
    );
    load();
  }

  const pages = data ? Math.max(1, Math.ceil(data.count / PAGE_SIZE)) : 1;
  return (
    <section class="panel" aria-labelledby="carts-title">
      <h1 id="carts-title">
        {store ? t('carts.titleStore', { store: store.name }) : t('carts.title')}
      </h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('carts.filters')}>
        <div class="field">
          <label for={ids.store}>{t('filter.store')}</label>
          <StoreSelect
            id={ids.store}
            stores={stores}
            value={filters.gln}
            onChange={(gln) => set({ gln, user: '' })}
          />
        </div>
        <div class="field">
          <label for={ids.checkout}>{t('carts.checkedOut')}</label>
          <select
            id={ids.checkout}
            value={filters.checkout}
            onChange={(e) => set({ checkout: e.currentTarget.value as Tri })}
          >
            <option value="">{t('filter.all')}</option>
            <option value="True">{t('carts.checkedOutYes')}</option>
            <option value="False">{t('carts.checkedOutNo')}</option>
          </select>
        </div>
        <div class="field">
          <label for={ids.error}>{t('carts.availability')}</label>
          <select
            id={ids.error}
            value={filters.error}
            onChange={(e) => set({ error: e.currentTarget.value as Tri })}
          >
            <option value="">{t('filter.all')}</option>
            <option value="True">{t('carts.withError')}</option>
            <option value="False">{t('carts.withoutError')}</option>
          </select>
        </div>
        <DateField
          label={t('carts.createdFrom')}
          value={filters.from}
          onChange={(from) => set({ from })}
        />
        <DateField label={t('carts.createdTo')} value={filters.to} onChange={(to) => set({ to })} />
        <div class="field">
          <label for={ids.user}>{t('carts.customer')}</label>
          <select
            id={ids.user}
            value={filters.user}
            onChange={(e) => set({ user: e.currentTarget.value })}
          >
            <option value="">{t('carts.allCustomers')}</option>
            {users.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {userName(u)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {notice && <Notice text={notice.text} kind={notice.kind} />}
      {data && data.count === 0 && <p class="empty">{t('carts.none')}</p>}
      {data && data.count > 0 && (
        <table class="carts">
          <caption class="visually-hidden">{t('carts.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('carts.col.cart')}</th>
              <th scope="col">{t('carts.col.customer')}</th>
              <th scope="col" class="wide-only">
                {t('carts.col.organization')}
              </th>
              <th scope="col" class="num">
                {t('carts.col.lines')}
              </th>
              <th scope="col" class="num">
                {t('carts.col.quantity')}
              </th>
              <th scope="col">{t('carts.col.activity')}</th>
              <th scope="col">{t('carts.col.status')}</th>
              <th scope="col" class="wide-only">
                {t('carts.col.controls')}
              </th>
              <th scope="col">
                <span class="visually-hidden">{t('carts.col.actions')}</span>
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
          label={t('pager.label')}
          page={page}
          pages={pages}
          count={data.count}
          onPage={setPage}
        />
      )}
    </section>
  );
}

function status(cart: Cart): string {
  if (cart.checkout) return t('carts.status.checkedOut');
  if (cart.checkout_availability_error) return t('carts.status.error');
  return t('carts.status.inStore');
}

const controlIds = (cart: Cart) => cart.controls.map((c) => `#${c}`).join(', ');

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
        <td class="wide-only">{cart.organization.name}</td>
        <td class="num">{num(cart.items_count)}</td>
        <td class="num">{num(cart.total_quantity)}</td>
        <td>{when(cart.last_activity)}</td>
        <td>
          <span
            class={
              cart.checkout ? 'badge ok' : cart.checkout_availability_error ? 'badge warn' : 'badge'
            }
          >
            {status(cart)}
          </span>
          {props.fresh && <span class="badge new">{t('carts.new')}</span>}
          {cart.checkout && (
            <div class="sub">{t('carts.status.order', { order: cart.checkout.order_number })}</div>
          )}
          {cart.controls.length > 0 && (
            <div class="sub narrow-only">
              {t('carts.col.controls')}: {controlIds(cart)}
            </div>
          )}
        </td>
        <td class="wide-only">{cart.controls.length ? controlIds(cart) : t('none')}</td>
        <td class="actions">
          <button
            type="button"
            class="secondary"
            aria-expanded={props.open}
            aria-controls={detailId}
            onClick={props.onToggle}
          >
            {props.open ? t('carts.close') : t('carts.open')}
            <span class="visually-hidden"> {t('cart.ref', { id: cart.id })}</span>
          </button>
          {props.onControl && (
            <button type="button" onClick={props.onControl}>
              {t('carts.control')}
              <span class="visually-hidden"> {t('cart.ref', { id: cart.id })}</span>
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
    cartById(id, true).then((data) => {
      if (data) setCart(data);
    });
  }, [id, live.seq]);
  if (!cart) return <p>{t('carts.loading', { id })}</p>;
  return (
    <div class="cart-detail">
      <div>
        <h3>{t('carts.linesOf', { id: cart.id })}</h3>
        <CartLines cart={cart} scanned />
      </div>
      <div>
        <h3>{t('carts.checkout')}</h3>
        {cart.checkout ? (
          <dl>
            <dt>{t('carts.orderNumber')}</dt>
            <dd>{cart.checkout.order_number}</dd>
            <dt>{t('carts.orderId')}</dt>
            <dd>{cart.checkout.order_id}</dd>
            <dt>{t('carts.checkedOutAt')}</dt>
            <dd>{when(cart.checkout.created)}</dd>
            <dt>{t('carts.timedOut')}</dt>
            <dd>{cart.checkout.timed_out ? t('carts.timedOutYes') : t('no')}</dd>
          </dl>
        ) : (
          <p>{t('carts.notYet')}</p>
        )}
        <dl>
          <dt>{t('carts.orderMark')}</dt>
          <dd>{cart.order_mark || t('none')}</dd>
          <dt>{t('carts.reference')}</dt>
          <dd>{cart.reference ?? t('none')}</dd>
          <dt>{t('carts.created')}</dt>
          <dd>{when(cart.created)}</dd>
        </dl>
      </div>
    </div>
  );
}

/**
 * A cart's lines: part number, product name (live from the ERP, where it has one) and
 * quantity; with `scanned`, when each was scanned.
 */
export function CartLines({ cart, scanned = false }: { cart: Cart; scanned?: boolean }) {
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    let gone = false;
    for (const item of cart.items) {
      productName(item.part_number).then((name) => {
        if (name && !gone) setNames((known) => ({ ...known, [item.part_number]: name }));
      });
    }
    return () => {
      gone = true;
    };
  }, [cart]);
  if (cart.items.length === 0) return <p>{t('carts.noLines')}</p>;
  return (
    <table class="lines">
      <thead>
        <tr>
          <th scope="col">{t('carts.partNumber')}</th>
          <th scope="col">{t('carts.product')}</th>
          <th scope="col" class="num">
            {t('carts.col.quantity')}
          </th>
          {scanned && <th scope="col">{t('carts.scanned')}</th>}
        </tr>
      </thead>
      <tbody>
        {cart.items.map((item) => (
          <tr key={item.id} data-part={item.part_number}>
            <td>{item.part_number}</td>
            <td>{names[item.part_number] ?? t('none')}</td>
            <td class="num">{num(item.quantity)}</td>
            {scanned && <td>{when(item.created)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
