import { useEffect, useState } from 'preact/hooks';
import {
  api,
  endSession,
  hasToken,
  LOGGED_OUT,
  type Me,
  onSessionEnd,
  userName,
  whoAmI,
} from './api';
import { AuditView } from './audit';
import { CartsView } from './carts';
import { ControlsView } from './controls';
import { DashboardView } from './dashboard';
import { type Live, type LiveStatus, listen } from './live';
import { Login } from './login';
import { StoresView } from './stores';

const SCREENS = [
  { path: 'carts', title: 'Carts', admin: false },
  { path: 'controls', title: 'Controls', admin: true },
  { path: 'stores', title: 'Stores', admin: false },
  { path: 'dashboard', title: 'Dashboard', admin: false },
  { path: 'audit', title: 'Audit', admin: true },
] as const;
type Screen = (typeof SCREENS)[number]['path'];

function currentScreen(): Screen {
  const path = location.hash.replace(/^#\/?/, '');
  return SCREENS.find((s) => s.path === path)?.path ?? 'carts';
}

interface Alert {
  id: number;
  text: string;
}

export function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [checking, setChecking] = useState(hasToken());
  const [reason, setReason] = useState('');
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
    return () => {
      off();
      window.removeEventListener('hashchange', onHash);
    };
  }, []);

  useEffect(() => {
    if (!me) return;
    return listen((event) => {
      setLive((previous) => ({ event, seq: previous.seq + 1 }));
      if (event.type === 'control.created' && event.data.control.is_random) {
        const { control } = event.data;
        const carts = control.carts.map((c) => `#${c}`).join(', ');
        const show = (who: string, where: string) =>
          setAlerts((list) => [
            ...list.filter((a) => a.id !== control.id),
            { id: control.id, text: `Stop ${who} at the exit${where}: carts ${carts}.` },
          ]);
        show(`customer #${control.user}`, '');
        // The names, from the first controlled cart (the message carries only ids).
        if (control.carts[0]) {
          api
            .GET('/api/v1/carts/{id}/', { params: { path: { id: String(control.carts[0]) } } })
            .then(({ data }) => {
              if (data) show(userName(data.user), data.store ? ` of store ${data.store.gln}` : '');
            });
        }
      }
    }, setStatus);
  }, [me]);

  if (checking) return <p class="loading">Checking your session…</p>;
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
  const role = me.is_admin ? 'admin' : 'staff';
  return (
    <div class="shell">
      <header class="topbar">
        <span class="brand">Staff console</span>
        <nav aria-label="Screens">
          <ul>
            {screens.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={s.path === shown ? 'page' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class={`live live-${status}`} role="status" title="Live updates">
          {status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Offline'}
        </span>
        <span class="who">
          {me.first_name || me.username} ({role})
        </span>
        <button type="button" class="secondary" onClick={() => endSession(LOGGED_OUT)}>
          Log out
        </button>
      </header>
      <div class="alerts" aria-live="assertive">
        {alerts.map((alert) => (
          <div class="alert" role="alert" key={alert.id}>
            <strong>Random control #{alert.id}</strong> <span>{alert.text}</span>{' '}
            {me.is_admin && <a href="#/controls">Open controls</a>}{' '}
            <button
              type="button"
              class="secondary"
              onClick={() => setAlerts((list) => list.filter((a) => a.id !== alert.id))}
            >
              Dismiss
            </button>
          </div>
        ))}
      </div>
      <main id="main">
        {shown === 'carts' && <CartsView me={me} live={live} />}
        {shown === 'controls' && <ControlsView live={live} />}
        {shown === 'stores' && <StoresView />}
        {shown === 'dashboard' && <DashboardView live={live} />}
        {shown === 'audit' && <AuditView live={live} />}
      </main>
    </div>
  );
}
