// Live updates for every barhub page, over one WebSocket (protocol v2, see
// docs/PROTOCOL.md).
//
//   import { connect } from "./live.js";
//   const live = connect();
//   live.on("order.ready", (data, msg) => showReady(data));
//   live.onResync("guest:" + me.id, () => reloadOrders());
//   live.onStatus((status) => setBadge(status));
//   live.subscribe("guest:" + me.id);
//   reloadOrders(); // fetch state after subscribing, so nothing falls between
//
// The connection survives sleep, network changes and server restarts: it
// reconnects with jittered backoff and resubscribes with the last position
// (epoch and seq) seen on each topic, so the server replays whatever was
// missed. The positions are kept in sessionStorage, so a reload of the page
// does not lose events either. When the server no longer holds what was missed
// (or lost the history the seq counted in: a new epoch) it sends a resync and
// the page's resync handlers refetch state over HTTP.

const KEY_TOKEN = "barhub.token";
const KEY_SEQ = "barhub.live.seq";
const KEY_EPOCH = "barhub.live.epoch";

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30000;
// The server pings too, but a phone may not notice a dead connection for
// minutes; our own ping gets an answer or the socket is replaced.
const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 45000;
const STABLE_AFTER_MS = 10000;

// Close codes the server uses.
const CLOSE_SLOW_CONSUMER = 4000;
const CLOSE_SESSION_ENDED = 4001;
const CLOSE_TOO_MANY = 4008;

// defaultGetTicket trades the signed-in token for a one-time WebSocket ticket
// ({ticket, topicPrefix}).
async function defaultGetTicket() {
  const token = localStorage.getItem(KEY_TOKEN);
  if (!token) throw new LiveAuthError("not signed in");
  const res = await fetch("/api/ws/ticket", {
    method: "POST",
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
  });
  if (res.status === 401 || res.status === 403) throw new LiveAuthError("sign-in expired");
  if (!res.ok) throw new Error(`ticket request failed with ${res.status}`);
  return res.json();
}

export class LiveAuthError extends Error {
  constructor(message) {
    super(message);
    this.name = "LiveAuthError";
  }
}

function defaultURL(ticket) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws?ticket=${encodeURIComponent(ticket)}`;
}

function load(storage, key) {
  try {
    const v = JSON.parse(storage?.getItem(key) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

// connect opens the live connection and keeps it open until close().
// Options: getTicket (async, returns a ticket, or the ticket route's answer
// {ticket, topicPrefix}), url (ticket → WebSocket URL), storage (where seqs
// persist; sessionStorage by default).
//
// Pages name topics as the protocol always has ("bar", "guest:<id>"). The
// events of an installation's other events travel as "e:<event>:bar": the
// ticket's topicPrefix says so, and it is added and taken off here, so a page
// never hears another event's topics and never needs to know (docs/EVENTS.md).
export function connect(options = {}) {
  const getTicket = options.getTicket || defaultGetTicket;
  const urlFor = options.url || defaultURL;
  const storage = options.storage === undefined ? globalThis.sessionStorage : options.storage;

  const topics = new Set(); // as the page names them
  // The wire's names: the event's prefix (from the ticket) and the topic.
  let prefix = "";
  const wire = (topic) => prefix + topic;
  const local = (topic) => (prefix && typeof topic === "string" && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic);
  const seqs = load(storage, KEY_SEQ); // wire topic → last seq seen
  const epochs = load(storage, KEY_EPOCH); // topic → epoch of that seq
  const handlers = new Map(); // event name or "*" → Set of fn
  const resyncHandlers = new Map(); // topic or "*" → Set of fn
  const statusHandlers = new Set();
  const errorHandlers = new Set();

  let ws = null;
  let status = "connecting";
  let attempt = 0;
  let closed = false;
  let retryTimer = null;
  let pingTimer = null;
  let lastHeard = 0;
  let saveTimer = null;
  let stableTimer = null;

  function setStatus(s) {
    if (s === status) return;
    status = s;
    for (const fn of statusHandlers) safeCall(fn, s);
  }

  function saveSeqs() {
    if (!storage || saveTimer) return;
    // Batch writes: a busy topic should not mean a storage write per event.
    saveTimer = setTimeout(() => {
      saveTimer = null;
      try {
        storage.setItem(KEY_SEQ, JSON.stringify(seqs));
        storage.setItem(KEY_EPOCH, JSON.stringify(epochs));
      } catch {
        // Storage full or disabled: replay then starts from this page's memory.
      }
    }, 250);
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  function sendSubscribe(name) {
    const topic = wire(name);
    const msg = { type: "subscribe", topic };
    if (Number.isSafeInteger(seqs[topic])) {
      // "<epoch>:<seq>" lets the server tell a seq of a lost history from
      // one of the current; a bare seq (no epoch known yet) still works.
      msg.since = epochs[topic] ? `${epochs[topic]}:${seqs[topic]}` : seqs[topic];
    }
    send(msg);
  }

  function setPosition(topic, epoch, seq) {
    seqs[topic] = seq;
    if (epoch) epochs[topic] = epoch;
    else delete epochs[topic];
    saveSeqs();
  }

  function emit(map, key, ...args) {
    for (const k of [key, "*"]) {
      const set = map.get(k);
      if (set) for (const fn of set) safeCall(fn, ...args);
    }
  }

  function handle(msg) {
    switch (msg.type) {
      case "hello":
        // Back off from scratch only once the connection has held for a
        // while, so a server that accepts and drops at once is not hammered.
        clearTimeout(stableTimer);
        stableTimer = setTimeout(() => (attempt = 0), STABLE_AFTER_MS);
        setStatus("open");
        for (const t of topics) sendSubscribe(t);
        break;
      case "subscribed":
        // With since, the missed events follow and advance the seq; without,
        // the page starts from now.
        // (A since in a lost epoch gets a resync, which sets both.)
        if (!Number.isSafeInteger(seqs[msg.topic])) setPosition(msg.topic, msg.epoch, msg.seq);
        break;
      case "event":
        if (!topics.has(local(msg.topic))) break;
        // A repeat is an event of the same epoch at or before the last seq;
        // the server announces a new epoch with a resync first.
        if (
          Number.isSafeInteger(seqs[msg.topic]) &&
          (epochs[msg.topic] || "") === (msg.epoch || "") &&
          msg.seq <= seqs[msg.topic]
        )
          break;
        setPosition(msg.topic, msg.epoch, msg.seq);
        emit(handlers, msg.event, msg.data, { ...msg, topic: local(msg.topic) });
        break;
      case "resync":
        setPosition(msg.topic, msg.epoch, msg.seq);
        emit(resyncHandlers, local(msg.topic), local(msg.topic));
        break;
      case "error":
        for (const fn of errorHandlers) safeCall(fn, { ...msg, topic: local(msg.topic) });
        break;
      default:
        // pong, and message types from newer servers.
        break;
    }
  }

  // offline is the browser's word that there is no network at all: the page says
  // "Offline" at once, rather than "Live" over a socket that has not noticed yet.
  const offline = () => globalThis.navigator?.onLine === false;

  async function open() {
    if (closed) return;
    setStatus(offline() ? "offline" : attempt === 0 ? "connecting" : "reconnecting");
    let ticket;
    try {
      const t = await getTicket();
      ticket = typeof t === "string" ? t : t.ticket;
      prefix = (typeof t === "object" && t.topicPrefix) || "";
    } catch (err) {
      if (err instanceof LiveAuthError) {
        setStatus("unauthorized");
        return;
      }
      retry();
      return;
    }
    if (closed) return;
    const sock = new WebSocket(urlFor(ticket));
    ws = sock;
    lastHeard = Date.now();
    sock.onmessage = (e) => {
      lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      handle(msg);
    };
    sock.onclose = (e) => {
      if (ws !== sock) return;
      ws = null;
      stopPing();
      clearTimeout(stableTimer);
      if (closed) return;
      // The holder's access changed: sign in again, as after an API 401.
      if (e.code === CLOSE_SESSION_ENDED) {
        setStatus("unauthorized");
        return;
      }
      // A slow-consumer cut means we fell behind: wait a little longer
      // before asking for the replay.
      if (e.code === CLOSE_SLOW_CONSUMER) attempt = Math.max(attempt, 2);
      // Over a per-person limit (too many open pages, or replays): come back
      // only after a long pause, when the old sockets have gone.
      if (e.code === CLOSE_TOO_MANY) attempt = Math.max(attempt, 6);
      retry();
    };
    sock.onerror = () => {
      // onclose follows and reconnects.
    };
    startPing(sock);
  }

  function retry() {
    if (closed || retryTimer) return;
    setStatus(offline() ? "offline" : "reconnecting");
    const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
    attempt++;
    // Full jitter spreads a crowd of phones reconnecting after a restart.
    const delay = Math.random() * cap;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  }

  function reconnectNow() {
    if (closed || status === "unauthorized") return;
    if (ws && ws.readyState === WebSocket.OPEN && Date.now() - lastHeard < SILENCE_LIMIT_MS) return;
    if (retryTimer) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    if (ws) {
      const old = ws;
      ws = null;
      stopPing();
      old.close();
    }
    attempt = 0;
    open();
  }

  function startPing(sock) {
    stopPing();
    pingTimer = setInterval(() => {
      if (Date.now() - lastHeard > SILENCE_LIMIT_MS) {
        // Silent for too long: treat as dead and replace it.
        reconnectNow();
        return;
      }
      if (sock.readyState === WebSocket.OPEN) sock.send('{"type":"ping"}');
    }, PING_EVERY_MS);
  }

  function stopPing() {
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = null;
  }

  const onVisible = () => {
    if (document.visibilityState === "visible") reconnectNow();
  };
  const onOnline = () => reconnectNow();
  // The network is gone: the socket with it, though it may take the ping's
  // silence limit to say so. Drop it now; "online" (or the backoff) opens a
  // new one.
  const onOffline = () => {
    if (closed || status === "unauthorized") return;
    if (ws) {
      const old = ws;
      ws = null;
      stopPing();
      clearTimeout(stableTimer);
      old.close();
    }
    retry();
    setStatus("offline");
  };
  const onHide = () => {
    if (saveTimer) {
      clearTimeout(saveTimer);
      saveTimer = null;
    }
    try {
      storage?.setItem(KEY_SEQ, JSON.stringify(seqs));
      storage?.setItem(KEY_EPOCH, JSON.stringify(epochs));
    } catch {
      // Nothing more to do when storage is unavailable.
    }
  };
  globalThis.document?.addEventListener("visibilitychange", onVisible);
  globalThis.addEventListener?.("online", onOnline);
  globalThis.addEventListener?.("offline", onOffline);
  globalThis.addEventListener?.("pagehide", onHide);

  open();

  return {
    // subscribe joins topic (e.g. "guests", "guest:<id>", "bar"). Safe to
    // call before the connection is open.
    subscribe(topic) {
      if (topics.has(topic)) return;
      topics.add(topic);
      sendSubscribe(topic);
    },
    unsubscribe(topic) {
      if (!topics.delete(topic)) return;
      delete seqs[wire(topic)];
      delete epochs[wire(topic)];
      saveSeqs();
      send({ type: "unsubscribe", topic: wire(topic) });
    },
    // on calls fn(data, msg) for every event named name ("order.ready"),
    // or every event with "*". Returns a function that removes it.
    on(name, fn) {
      return add(handlers, name, fn);
    },
    // onResync calls fn(topic) when the page must refetch a topic's state
    // ("*" for any topic).
    onResync(topic, fn) {
      return add(resyncHandlers, topic, fn);
    },
    // onStatus calls fn(status) now and on every change: "connecting",
    // "open", "reconnecting", "offline" (the browser has no network),
    // "unauthorized" or "closed".
    onStatus(fn) {
      statusHandlers.add(fn);
      safeCall(fn, status);
      return () => statusHandlers.delete(fn);
    },
    // onError calls fn({code, message, topic}) for refused requests, such as
    // a subscription the signed-in role may not have.
    onError(fn) {
      errorHandlers.add(fn);
      return () => errorHandlers.delete(fn);
    },
    // lastSeq returns the last seq seen on topic; lastEpoch the epoch it
    // counts in.
    lastSeq(topic) {
      return seqs[wire(topic)];
    },
    lastEpoch(topic) {
      return epochs[wire(topic)];
    },
    get status() {
      return status;
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      stopPing();
      onHide();
      globalThis.document?.removeEventListener("visibilitychange", onVisible);
      globalThis.removeEventListener?.("online", onOnline);
      globalThis.removeEventListener?.("offline", onOffline);
      globalThis.removeEventListener?.("pagehide", onHide);
      if (ws) ws.close(1000);
      ws = null;
      setStatus("closed");
    },
  };
}

function add(map, key, fn) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(fn);
  return () => set.delete(fn);
}

function safeCall(fn, ...args) {
  try {
    fn(...args);
  } catch (err) {
    console.error("live handler failed", err);
  }
}
