/*
 * What one viewer of a live view is shown, as a state machine without input or output: the tabs, the one it
 * watches, the frame it is drawing and the newest that waits, the frames' size and quality. Each event returns
 * the effects its transport (screencast-viewer.ts) carries out on the browser and the viewer's socket.
 */

export interface Tab {
  id: string;
  title: string;
  url: string;
}

/** A screencast frame, by the DevTools session of the tab it shows and its number there. */
export interface Frame {
  sessionId: string;
  data: string;
  width: number;
  height: number;
  number: number;
}

export type ViewerEffect =
  /** Send the frame to the viewer. */
  | { kind: 'show'; frame: Frame }
  /** Acknowledge the frame to the browser, which then sends the next one. */
  | { kind: 'release'; frame: Frame }
  /** Start the watched tab's screencast again, at the current size and quality. */
  | { kind: 'restart' }
  /** Watch this tab: attach to it, then `watched`. */
  | { kind: 'watch'; tab: string };

/** Frame quality steps, chosen by how fast the viewer confirms frames (its connection and its screen). */
export const QUALITIES = [35, 55, 75] as const;
const SLOW_ACK_MS = 350;
const FAST_ACK_MS = 120;

export class ViewerState {
  readonly tabs = new Map<string, Tab>();
  watching: { targetId: string; sessionId: string } | null = null;
  size = { width: 1280, height: 800 };
  quality: number = QUALITIES[1];
  ended = false;
  /** The agent's or run's tab when last looked at: a change of it is followed, a person's own choice stays. */
  private followed: string | null = null;
  /** The frame the viewer is drawing (not yet acknowledged), and the newest one that came meanwhile. */
  private shown: { frame: Frame; sentAt: number } | null = null;
  private next: Frame | null = null;
  /** How long the viewer takes to confirm a frame, smoothed. */
  private ackMs = 0;

  /** A frame came from the browser at `now` (ms). */
  frameCame(frame: Frame, now: number): ViewerEffect[] {
    if (frame.sessionId !== this.watching?.sessionId) return [{ kind: 'release', frame }];
    if (this.shown === null) return this.show(frame, now);
    // The viewer is still drawing: only the newest frame waits, older ones are let go.
    const dropped: ViewerEffect[] = this.next ? [{ kind: 'release', frame: this.next }] : [];
    this.next = frame;
    return dropped;
  }

  /** The viewer confirmed, at `now`, that it drew the frame it was sent. */
  acknowledged(now: number): ViewerEffect[] {
    const shown = this.shown;
    if (!shown) return [];
    const effects = [
      ...this.fitQuality(now - shown.sentAt),
      { kind: 'release', frame: shown.frame } as const,
    ];
    this.shown = null;
    const waiting = this.next;
    this.next = null;
    if (waiting && waiting.sessionId === this.watching?.sessionId) effects.push(...this.show(waiting, now));
    return effects;
  }

  /** The viewer's picture is now this large, in device pixels. */
  resized(width: number, height: number): ViewerEffect[] {
    this.size = { width, height };
    return this.watching ? [{ kind: 'restart' }] : [];
  }

  /**
   * The browser's tabs were read. The agent's or run's tab (`active`) is followed when it changes; the watched
   * tab stays otherwise, unless it closed: then the active tab, or the first.
   */
  tabsRead(tabs: Tab[], active: string | null): ViewerEffect[] {
    this.tabs.clear();
    for (const tab of tabs) this.tabs.set(tab.id, tab);
    if (active !== null && active !== this.followed && this.tabs.has(active)) {
      this.followed = active;
      return [{ kind: 'watch', tab: active }];
    }
    if (this.watching && this.tabs.has(this.watching.targetId)) return [];
    this.watching = null;
    const opening = active !== null && this.tabs.has(active) ? active : this.tabs.keys().next().value;
    return opening ? [{ kind: 'watch', tab: opening }] : [];
  }

  /** The viewer now watches this tab, over this DevTools session: no frame of the one before is drawn. */
  watched(targetId: string, sessionId: string): void {
    this.watching = { targetId, sessionId };
    this.shown = null;
    this.next = null;
  }

  /** The tabs as the viewer is told them. */
  tabsMessage(): object {
    return { type: 'tabs', tabs: [...this.tabs.values()], watching: this.watching?.targetId };
  }

  private show(frame: Frame, now: number): ViewerEffect[] {
    this.shown = { frame, sentAt: now };
    return [{ kind: 'show', frame }];
  }

  /** A slower viewer gets smaller frames, a faster one better ones: a step at a time, with a restart. */
  private fitQuality(elapsedMs: number): ViewerEffect[] {
    this.ackMs = this.ackMs === 0 ? elapsedMs : this.ackMs * 0.8 + elapsedMs * 0.2;
    const step = QUALITIES.indexOf(this.quality as (typeof QUALITIES)[number]);
    const better = this.ackMs > SLOW_ACK_MS ? step - 1 : this.ackMs < FAST_ACK_MS ? step + 1 : step;
    const chosen = QUALITIES[Math.max(0, Math.min(QUALITIES.length - 1, better))] ?? this.quality;
    if (chosen === this.quality || !this.watching) return [];
    this.quality = chosen;
    return [{ kind: 'restart' }];
  }
}
