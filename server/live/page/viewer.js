// The live view's page: shows the frames of the session's tab and, with a control address, sends the mouse, the
// keys and pasted text to it. Coordinates are the page's own CSS pixels: the picture is scaled to this window,
// the session's page keeps its size.
const screen = /** @type {HTMLImageElement} */ (document.getElementById('screen'));
const tabs = /** @type {HTMLSelectElement} */ (document.getElementById('tabs'));
const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const modeBadge = /** @type {HTMLElement} */ (document.getElementById('mode'));

let control = false;
let page = { width: 0, height: 0 };
let frames = 0;
let refusal = '';

const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const socket = new WebSocket(`${scheme}://${location.host}${location.pathname}/socket`);

/** @param {object} message */
function send(message) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function sendSize() {
  const box = screen.getBoundingClientRect();
  const devicePixels = (/** @type {number} */ length) =>
    Math.max(1, Math.min(8192, Math.round(length * window.devicePixelRatio)));
  send({ type: 'size', width: devicePixels(box.width), height: devicePixels(box.height) });
}

/** @param {{ data: string, width: number, height: number }} frame */
async function show(frame) {
  page = { width: frame.width, height: frame.height };
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
  tabs.replaceChildren(
    ...list.map((tab) => {
      const option = new Option(tab.title || tab.url || 'New tab', tab.id);
      option.selected = tab.id === watching;
      return option;
    }),
  );
}

/** `#tab=<target id>` (Take over of a request for help): the tab that asked is shown first, once. */
let askedTab = new URLSearchParams(location.hash.slice(1)).get('tab');
/** @param {{ id: string }[]} list @param {string | undefined} watching */
function openAskedTab(list, watching) {
  if (!askedTab || !list.some((tab) => tab.id === askedTab)) return;
  if (askedTab !== watching) send({ type: 'watch', tab: askedTab });
  askedTab = null;
}

socket.addEventListener('open', () => {
  status.textContent = 'Live';
  sendSize();
});
socket.addEventListener('message', (event) => {
  const message = JSON.parse(event.data);
  if (message.type === 'frame') void show(message);
  else if (message.type === 'tabs') {
    listTabs(message.tabs, message.watching);
    openAskedTab(message.tabs, message.watching);
  } else if (message.type === 'refused') refusal = message.detail;
  else if (message.type === 'mode') {
    control = message.mode === 'control';
    modeBadge.textContent = control ? 'Control' : 'View only';
    if (control) screen.dataset.control = '';
  }
});
socket.addEventListener('close', (event) => {
  status.textContent = refusal || event.reason || 'The live view has ended.';
  document.body.dataset.closed = '';
});

let resizing = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = window.setTimeout(sendSize, 200);
});
tabs.addEventListener('change', () => send({ type: 'watch', tab: tabs.value }));

/** @param {MouseEvent | KeyboardEvent} event */
function modifiers(event) {
  return (
    (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0)
  );
}

/** Where the pointer is on the session's page, in its CSS pixels (the picture is letterboxed in the element). */
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

/** @param {'down' | 'up'} kind @param {KeyboardEvent} event */
function sendKey(kind, event) {
  if (!control || event.target === tabs) return;
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
  if (!control) return;
  event.preventDefault();
  const text = event.clipboardData?.getData('text/plain') ?? '';
  if (text) send({ type: 'text', text: text.slice(0, 100_000) });
});
