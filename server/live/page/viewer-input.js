// The live view's input: with a control address, the mouse, the keys, pasted and composed (IME) text go to the
// session's tab, at the page's own CSS pixels (the picture is scaled to this window, the page keeps its size).

/**
 * Sends what the person does on the picture and with the keys, while `controlling()`.
 * @param {{ screen: HTMLImageElement, keys: HTMLTextAreaElement, send: (message: object) => void,
 *   controlling: () => boolean, page: () => { width: number, height: number } }} view
 */
export function sendInput({ screen, keys, send, controlling, page }) {
  /** @param {MouseEvent | KeyboardEvent} event */
  function modifiers(event) {
    return (
      (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0)
    );
  }

  /** Where the pointer is on the session's page, in its CSS pixels. */
  function pagePoint(/** @type {MouseEvent} */ event) {
    const { width, height } = page();
    const box = screen.getBoundingClientRect();
    const scale = Math.min(box.width / width, box.height / height) || 1;
    const left = box.left + (box.width - width * scale) / 2;
    const top = box.top + (box.height - height * scale) / 2;
    return { x: (event.clientX - left) / scale, y: (event.clientY - top) / scale };
  }

  const BUTTONS = ['left', 'middle', 'right'];

  /** @param {'move' | 'down' | 'up' | 'wheel'} kind @param {MouseEvent} event @param {{ deltaX?: number, deltaY?: number }} [wheel] */
  function sendMouse(kind, event, wheel = {}) {
    if (!controlling() || page().width === 0) return;
    const pressed =
      kind === 'move' ? (event.buttons & 1 ? 'left' : 'none') : (BUTTONS[event.button] ?? 'left');
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
      const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? page().height : 1;
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
    if (!controlling() || forTheBar(event.target)) return;
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
    if (!controlling() || forTheBar(event.target)) return;
    event.preventDefault();
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (text) send({ type: 'text', text: text.slice(0, 100_000) });
  });
  keys.addEventListener('compositionupdate', (event) => {
    if (controlling()) send({ type: 'compose', text: event.data.slice(0, 256) });
  });
  keys.addEventListener('compositionend', (event) => {
    if (controlling() && event.data) send({ type: 'text', text: event.data.slice(0, 100_000) });
    keys.value = '';
  });
}
