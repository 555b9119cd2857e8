import { useEffect, useState } from 'preact/hooks';
import {
  cartById,
  type EndReason,
  endSession,
  hasToken,
  loadStores,
  type Me,
  onSessionEnd,
  type Store,
  userName,
  whoAmI,
} from './api';
import { AuditView } from './audit';
import { CartsView } from './carts';
import { ControlsView } from './controls';
import { DashboardView } from './dashboard';
import { type MessageKey, onLanguage, t } from './i18n';
import { LanguageSwitch } from './language';
import { type Live, type LiveStatus, listen } from './live';
import { Login } from './login';
import { StoresView } from './stores';

const SCREENS: readonly { path: string; title: MessageKey; admin: boolean }[] = [
  { path: 'carts', title: 'nav.carts', admin: false },
  { path: 'controls', title: 'nav.controls', admin: true },
  { path: 'stores', title: 'nav.stores', admin: false },
  { path: 'dashboard', title: 'nav.dashboard', admin: false },
  { path: 'audit', title: 'nav.audit', admin: true },
] as const;
type Screen = string;

function currentScreen(): Screen {
  const path = location.hash.replace(/^#\/?/, '');
  return SCREENS.find((s) => s.path === path)?.path ?? 'carts';
}

/** A random control's alert: formatted at render, in the current language. */
interface Alert {
  id: number;
  carts: number[];
  user: number;
  who?: string;
  store?: string;
}

export function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [checking, setChecking] = useState(hasToken());
  const [reason, setReason] = useState<EndReason>('');
  const [, setLanguage] = useState('');
  const [stores, setStores] = useState<Store[]>([]);
  const [screen, setScreen] = useState<Screen>(currentScreen());
  const [live, setLive] = useState<Live>({ event: null, seq: 0 });
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [alerts, setAlerts] = useState<Alert[]>([]);

  useEffect(() => {
    const off = onSessionEnd((why) => {
      setMe(null);
      setReason(why);
      setAlerts([]);
    });
    if (hasToken())
      whoAmI().then((user) => {
        setMe(user);
        setChecking(false);
      });
    const onHash = () => setScreen(currentScreen());
    window.addEventListener('hashchange', onHash);
    // A new language re-renders every screen (each formats as it renders).
    const offLanguage = onLanguage(setLanguage);
    return () => {
      off();
      offLanguage();
      window.removeEventListener('hashchange', onHash);
    };
  }, []);

  useEffect(() => {
    if (!me) return;
    loadStores().then(setStores);
    return listen((event) => {
      setLive((previous) => ({ event, seq: previous.seq + 1 }));
      if (event.type === 'control.created' && event.data.control.is_random) {
        const { control } = event.data;
        const show = (alert: Alert) =>
          setAlerts((list) => [...list.filter((a) => a.id !== control.id), alert]);
        const alert: Alert = { id: control.id, carts: control.carts, user: control.user };
        show(alert);
        // The names, from the first controlled cart (the message carries only ids).
        if (control.carts[0]) {
          cartById(control.carts[0]).then((cart) => {
            if (cart) show({ ...alert, who: userName(cart.user), store: cart.store?.gln });
          });
        }
      }
    }, setStatus);
  }, [me]);

  if (checking) return <p class="loading">{t('app.checking')}</p>;
  if (!me)
    return (
      <Login
        reason={reason}
        onLogin={(user) => {
          setReason('');
          setMe(user);
        }}
      />
    );

  const screens = SCREENS.filter((s) => !s.admin || me.is_admin);
  const shown = screens.some((s) => s.path === screen) ? screen : 'carts';
  const role = t(me.is_admin ? 'role.admin' : 'role.staff');
  const storeName = (gln?: string) => stores.find((s) => s.gln === gln)?.name ?? gln;
  return (
    <div class="shell">
      <header class="topbar">
        <span class="brand">{t('app.title')}</span>
        <nav aria-label={t('nav.label')}>
          <ul>
            {screens.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={s.path === shown ? 'page' : undefined}>
                  {t(s.title)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class={`live live-${status}`} role="status" title={t('live.title')}>
          {t(`live.${status}`)}
        </span>
        <span class="who">{t('who.role', { name: me.first_name || me.username, role })}</span>
        <LanguageSwitch />
        <button type="button" class="secondary" onClick={() => endSession('session.loggedOut')}>
          {t('logout')}
        </button>
      </header>
      <div class="alerts" aria-live="assertive">
        {alerts.map((alert) => (
          <div class="alert" role="alert" key={alert.id}>
            <strong>{t('alert.title', { id: alert.id })}</strong>{' '}
            <span>
              {t('alert.stop', {
                who: alert.who ?? t('alert.customer', { id: alert.user }),
                where: alert.store ? t('alert.where', { store: storeName(alert.store) ?? '' }) : '',
                carts: alert.carts.map((c) => `#${c}`).join(', '),
              })}
            </span>{' '}
            {me.is_admin && <a href="#/controls">{t('alert.open')}</a>}{' '}
            <button
              type="button"
              class="secondary"
              aria-label={t('alert.dismissOne', { id: alert.id })}
              onClick={() => setAlerts((list) => list.filter((a) => a.id !== alert.id))}
            >
              {t('alert.dismiss')}
            </button>
          </div>
        ))}
      </div>
      <main id="main">
        {shown === 'carts' && <CartsView me={me} live={live} />}
        {shown === 'controls' && <ControlsView live={live} />}
        {shown === 'stores' && <StoresView />}
        {shown === 'dashboard' && <DashboardView live={live} me={me} />}
        {shown === 'audit' && <AuditView live={live} />}
      </main>
    </div>
  );
}
