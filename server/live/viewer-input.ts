import type { CdpSession } from './cdp-session';
import type { KeyInput, MouseInput } from './viewer-messages';

const MOUSE_TYPES = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased', wheel: 'mouseWheel' };

const ignore = () => {};

/** A controlling viewer's mouse, keys, pasted and composed text, sent to the tab it watches. */
export function tabInput(cdp: CdpSession) {
  return {
    mouse(input: MouseInput, tab: string): void {
      const wheel = input.event === 'wheel';
      cdp
        .send(
          'Input.dispatchMouseEvent',
          {
            type: MOUSE_TYPES[input.event],
            x: input.x,
            y: input.y,
            button: wheel ? 'none' : input.button,
            clickCount: input.clicks,
            modifiers: input.modifiers,
            ...(wheel ? { deltaX: input.deltaX, deltaY: input.deltaY } : {}),
          },
          tab,
        )
        .catch(ignore);
    },
    key(input: KeyInput, tab: string): void {
      const type = input.event === 'up' ? 'keyUp' : input.text ? 'keyDown' : 'rawKeyDown';
      cdp
        .send(
          'Input.dispatchKeyEvent',
          {
            type,
            key: input.key,
            code: input.code,
            windowsVirtualKeyCode: input.keyCode,
            modifiers: input.modifiers,
            ...(type === 'keyDown' ? { text: input.text, unmodifiedText: input.text } : {}),
          },
          tab,
        )
        .catch(ignore);
    },
    /** Pasted text, or the text an input method committed: typed into the focused field as it is. */
    text(text: string, tab: string): void {
      cdp.send('Input.insertText', { text }, tab).catch(ignore);
    },
    /** The text an input method is composing, shown in the focused field until committed (`text` above). */
    compose(text: string, tab: string): void {
      cdp
        .send(
          'Input.imeSetComposition',
          { text, selectionStart: text.length, selectionEnd: text.length },
          tab,
        )
        .catch(ignore);
    },
  };
}
