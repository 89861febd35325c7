// The live view's page: the session's tab live, with a browser's bar (profile, status, address, back, forward,
// reload, tabs, Stop, Copy view-only link). With a control address, the mouse, the keys, pasted and composed
// (IME) text go to the tab; a view-only address shows the same bar without controls (the server refuses them
// too). Coordinates are the page's own CSS pixels: the picture is scaled to this window, the page keeps its size.
const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const screen = /** @type {HTMLImageElement} */ (byId('screen'));
const keys = /** @type {HTMLTextAreaElement} */ (byId('keys'));
const address = /** @type {HTMLInputElement} */ (byId('address'));
const tabStrip = byId('tabs');
const status = byId('status');

let control = false;
let page = { width: 0, height: 0 };
let frames = 0;
let refusal = '';
let viewOnlyPath = '';
/** @type {{ id: string, title: string, url: string } | undefined} */
let watched;

const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const socket = new WebSocket(`${scheme}://${location.host}${location.pathname}/socket`);

/** @param {object} message */
function send(message) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/** @param {string} text @param {boolean} [problem] */
function say(text, problem = false) {
  status.textContent = text;
  status.toggleAttribute('data-problem', problem);
}

const zoom = /** @type {HTMLSelectElement} */ (byId('zoom'));

/**
 * The picture's place at the page's own proportions: as large as the area allows (Fit), as wide as the area
 * (Fit width), or the page's own size (100%); the area scrolls (and pans by touch) when the picture is larger.
 */
function fitted() {
  const area = /** @type {HTMLElement} */ (screen.parentElement);
  const width = area.clientWidth;
  const height = area.clientHeight;
  if (page.width === 0) return { width, height };
  const scales = {
    fit: Math.min(width / page.width, height / page.height),
    width: width / page.width,
    actual: 1,
  };
  const scale = scales[/** @type {keyof typeof scales} */ (zoom.value)] ?? scales.fit;
  return { width: page.width * scale, height: page.height * scale };
}

function layOut() {
  /** @type {HTMLElement} */ (screen.parentElement).toggleAttribute('data-zoomed', zoom.value !== 'fit');
  const { width, height } = fitted();
  screen.style.width = `${width}px`;
  screen.style.height = `${height}px`;
}

/** Asks for frames as large as the picture's place in device pixels (no larger: they would only be shrunk). */
function sendSize() {
  layOut();
  const { width, height } = fitted();
  const devicePixels = (/** @type {number} */ length) =>
    Math.max(1, Math.min(8192, Math.round(length * window.devicePixelRatio)));
  send({ type: 'size', width: devicePixels(width), height: devicePixels(height) });
}

/** @param {{ data: string, width: number, height: number }} frame */
async function show(frame) {
  const resized = frame.width !== page.width || frame.height !== page.height;
  page = { width: frame.width, height: frame.height };
  if (resized) sendSize();
  screen.src = `data:image/jpeg;base64,${frame.data}`;
  await screen.decode().catch(() => {});
  // Confirmed once painted: the next frame is sent only then, so a slow screen or link gets fewer frames.
  requestAnimationFrame(() => {
    frames += 1;
    document.body.dataset.frames = String(frames);
    send({ type: 'ack' });
  });
}

/** @param {{ id: string, title: string, url: string }[]} list @param {string | undefined} watching */
function listTabs(list, watching) {
  watched = list.find((tab) => tab.id === watching);
  tabStrip.replaceChildren(
    ...list.map((tab) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'tab');
      button.setAttribute('aria-selected', String(tab.id === watching));
      button.dataset.tab = tab.id;
      button.textContent = tab.title || tab.url || 'New tab';
      button.title = tab.url;
      button.addEventListener('click', () => send({ type: 'watch', tab: tab.id }));
      return button;
    }),
  );
  if (document.activeElement !== address) address.value = watched?.url ?? '';
}

/** `#tab=<target id>` (Take over of a request for help): the tab that asked is shown first, once. */
let askedTab = new URLSearchParams(location.hash.slice(1)).get('tab');
/** @param {{ id: string }[]} list @param {string | undefined} watching */
function openAskedTab(list, watching) {
  if (!askedTab || !list.some((tab) => tab.id === askedTab)) return;
  if (askedTab !== watching) send({ type: 'watch', tab: askedTab });
  askedTab = null;
}

/** @param {{ profile: string | null, status: string, view_only_path: string | null }} session */
function showSession(session) {
  byId('profile').textContent = session.profile ?? 'Deleted profile';
  document.title = `${session.profile ?? 'Session'} · Live view`;
  viewOnlyPath = session.view_only_path ?? '';
  say(session.status === 'running' ? 'Live' : session.status);
}

/**
 * The session's open request of an agent or a run for a person, or null once there is none: its reason, and
 * Done, one of its choices, or (for a question without choices) a typed answer, sent back as `help-reply`.
 * @param {{ id: string, reason: string, question: string | null, choices: string[] } | null} request
 */
function showHelp(request) {
  const help = byId('help');
  help.hidden = request === null;
  if (request === null) return help.replaceChildren();
  const reply = (/** @type {object} */ answer) => send({ type: 'help-reply', request: request.id, answer });
  const button = (/** @type {string} */ label, /** @type {object} */ answer) => {
    const element = document.createElement('button');
    element.type = 'button';
    element.textContent = label;
    element.addEventListener('click', () => reply(answer));
    return element;
  };
  const reason = document.createElement('span');
  reason.textContent = request.question ? `${request.reason} ${request.question}` : request.reason;
  const answers = request.choices.map((choice) => button(choice, { outcome: 'choice', choice }));
  if (request.question && request.choices.length === 0) {
    const form = document.createElement('form');
    const typed = document.createElement('input');
    typed.name = 'answer';
    typed.maxLength = 2000;
    typed.setAttribute('aria-label', 'Answer');
    const submit = document.createElement('button');
    submit.textContent = 'Answer';
    form.append(typed, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (typed.value) reply({ outcome: 'answer', text: typed.value });
    });
    answers.push(form);
  }
  help.replaceChildren(
    reason,
    ...answers,
    button('Done', { outcome: 'done' }),
    button('Decline', { outcome: 'declined' }),
  );
}

socket.addEventListener('open', sendSize);
socket.addEventListener('message', (event) => {
  const message = JSON.parse(event.data);
  if (message.type === 'frame') void show(message);
  else if (message.type === 'tabs') {
    listTabs(message.tabs, message.watching);
    openAskedTab(message.tabs, message.watching);
  } else if (message.type === 'session') showSession(message);
  else if (message.type === 'help') showHelp(message.request);
  else if (message.type === 'said') say(message.detail, true);
  else if (message.type === 'navigated') {
    if (message.refusal) say(message.refusal, true);
    else say('Live');
    address.value = watched?.url ?? '';
  } else if (message.type === 'refused') refusal = message.detail;
  else if (message.type === 'mode') {
    control = message.mode === 'control';
    byId('mode').textContent = control ? 'Control' : 'View only';
    address.readOnly = !control;
    for (const element of document.querySelectorAll('[data-control]'))
      if (element instanceof HTMLElement) element.hidden = !control;
    if (control) screen.dataset.control = '';
  }
});
/** The session is stopped or the view has ended: nothing can be sent to it any more. */
function disableControls() {
  control = false;
  address.readOnly = true;
  for (const element of document.querySelectorAll('[data-control]'))
    if (element instanceof HTMLButtonElement) element.disabled = true;
  delete screen.dataset.control;
}

socket.addEventListener('close', (event) => {
  say(refusal || event.reason || 'The live view has ended.', true);
  document.body.dataset.closed = '';
  disableControls();
});
zoom.addEventListener('change', sendSize);

let resizing = 0;
window.addEventListener('resize', () => {
  layOut();
  clearTimeout(resizing);
  resizing = window.setTimeout(sendSize, 200);
});

byId('address-bar').addEventListener('submit', (event) => {
  event.preventDefault();
  if (!control || !address.value.trim()) return;
  say('Opening…');
  send({ type: 'navigate', url: address.value.trim().slice(0, 2048) });
  address.blur();
});
address.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  address.value = watched?.url ?? '';
  address.blur();
});
byId('back').addEventListener('click', () => send({ type: 'go', step: -1 }));
byId('forward').addEventListener('click', () => send({ type: 'go', step: 1 }));
byId('reload').addEventListener('click', () => send({ type: 'reload' }));

const confirmStop = byId('confirm-stop');
byId('stop').addEventListener('click', () => {
  confirmStop.hidden = false;
  byId('stop-no').focus();
});
byId('stop-no').addEventListener('click', () => {
  confirmStop.hidden = true;
  byId('stop').focus();
});
byId('stop-yes').addEventListener('click', () => {
  confirmStop.hidden = true;
  say('Stopping…');
  send({ type: 'stop' });
  disableControls();
});

const copyButton = byId('copy');
copyButton.addEventListener('click', async () => {
  const link = `${location.origin}${viewOnlyPath}`;
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    // No clipboard access (an address that is not https): the older way, through a selected field.
    const field = Object.assign(document.createElement('input'), { value: link });
    document.body.append(field);
    field.select();
    document.execCommand('copy');
    field.remove();
  }
  copyButton.textContent = 'Copied';
  setTimeout(() => {
    copyButton.textContent = 'Copy view-only link';
  }, 2000);
});

/** @param {MouseEvent | KeyboardEvent} event */
function modifiers(event) {
  return (
    (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0)
  );
}

/** Where the pointer is on the session's page, in its CSS pixels. */
function pagePoint(/** @type {MouseEvent} */ event) {
  const box = screen.getBoundingClientRect();
  const scale = Math.min(box.width / page.width, box.height / page.height) || 1;
  const left = box.left + (box.width - page.width * scale) / 2;
  const top = box.top + (box.height - page.height * scale) / 2;
  return { x: (event.clientX - left) / scale, y: (event.clientY - top) / scale };
}

const BUTTONS = ['left', 'middle', 'right'];

/** @param {'move' | 'down' | 'up' | 'wheel'} kind @param {MouseEvent} event @param {{ deltaX?: number, deltaY?: number }} [wheel] */
function sendMouse(kind, event, wheel = {}) {
  if (!control || page.width === 0) return;
  const pressed = kind === 'move' ? (event.buttons & 1 ? 'left' : 'none') : (BUTTONS[event.button] ?? 'left');
  send({
    type: 'mouse',
    event: kind,
    ...pagePoint(event),
    button: kind === 'wheel' ? 'none' : pressed,
    clicks: kind === 'down' || kind === 'up' ? Math.min(3, Math.max(1, event.detail)) : 0,
    deltaX: wheel.deltaX ?? 0,
    deltaY: wheel.deltaY ?? 0,
    modifiers: modifiers(event),
  });
}

let pendingMove = /** @type {MouseEvent | null} */ (null);
screen.addEventListener('mousemove', (event) => {
  // At most one move per painted frame of this window.
  if (pendingMove === null)
    requestAnimationFrame(() => {
      if (pendingMove) sendMouse('move', pendingMove);
      pendingMove = null;
    });
  pendingMove = event;
});
screen.addEventListener('mousedown', (event) => {
  event.preventDefault();
  // The keys (and an input method) go to the page from here on.
  keys.focus({ preventScroll: true });
  sendMouse('down', event);
});
screen.addEventListener('mouseup', (event) => sendMouse('up', event));
screen.addEventListener('contextmenu', (event) => event.preventDefault());
screen.addEventListener(
  'wheel',
  (event) => {
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? page.height : 1;
    sendMouse('wheel', event, { deltaX: event.deltaX * unit, deltaY: event.deltaY * unit });
  },
  { passive: false },
);

/** Whether a key belongs to this page's own controls (the address, a button) rather than the session's. */
function forTheBar(/** @type {EventTarget | null} */ target) {
  return target instanceof Element && target !== keys && target.closest('header') !== null;
}

/** @param {'down' | 'up'} kind @param {KeyboardEvent} event */
function sendKey(kind, event) {
  if (!control || forTheBar(event.target)) return;
  // An input method is composing: its text comes with the composition events.
  if (event.isComposing || event.keyCode === 229) return;
  // Ctrl+V or ⌘V: the paste event that follows sends this computer's clipboard as text.
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v') return;
  event.preventDefault();
  const shortcut = event.ctrlKey || event.metaKey;
  const text =
    kind === 'up' || shortcut ? '' : event.key === 'Enter' ? '\r' : event.key.length === 1 ? event.key : '';
  send({
    type: 'key',
    event: kind,
    key: event.key.slice(0, 32),
    code: event.code.slice(0, 32),
    keyCode: event.keyCode & 255,
    text,
    modifiers: modifiers(event),
  });
}
window.addEventListener('keydown', (event) => sendKey('down', event));
window.addEventListener('keyup', (event) => sendKey('up', event));
window.addEventListener('paste', (event) => {
  if (!control || forTheBar(event.target)) return;
  event.preventDefault();
  const text = event.clipboardData?.getData('text/plain') ?? '';
  if (text) send({ type: 'text', text: text.slice(0, 100_000) });
});
keys.addEventListener('compositionupdate', (event) => {
  if (control) send({ type: 'compose', text: event.data.slice(0, 256) });
});
keys.addEventListener('compositionend', (event) => {
  if (control && event.data) send({ type: 'text', text: event.data.slice(0, 100_000) });
  keys.value = '';
});
