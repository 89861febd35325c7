// The live view's page: the session's tab live, with a browser's bar (profile, status, address, back, forward,
// reload, tabs, Stop, Copy view-only link). With a control address, the person's input goes to the tab
// (viewer-input.js); a view-only address shows the same bar without controls (the server refuses them too).
import { showHelp } from './viewer-help.js';
import { sendInput } from './viewer-input.js';

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

socket.addEventListener('open', sendSize);
socket.addEventListener('message', (event) => {
  const message = JSON.parse(event.data);
  if (message.type === 'frame') void show(message);
  else if (message.type === 'tabs') {
    listTabs(message.tabs, message.watching);
    openAskedTab(message.tabs, message.watching);
  } else if (message.type === 'session') showSession(message);
  else if (message.type === 'help') showHelp(byId('help'), message.request, send);
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

sendInput({ screen, keys, send, controlling: () => control, page: () => page });
