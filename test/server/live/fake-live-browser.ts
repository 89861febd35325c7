import type { CdpMultiplexer } from '../../../server/browser/cdp-multiplexer';
import type { CdpMessage } from '../../../server/browser/cdp-pipe';
import type { LiveMode } from '../../../server/live/live-tokens';
import { startLiveViewer, type ViewerSession } from '../../../server/live/screencast-viewer';

/** Answers by method: as they are, or made from the command's parameters. */
type Answers = Record<string, object | ((params: Record<string, unknown> | undefined) => object)>;

export const ANSWERS: Answers = {
  'Target.getTargets': {
    targetInfos: [
      { targetId: 'T1', type: 'page', title: 'One', url: 'https://one.example/' },
      { targetId: 'W1', type: 'service_worker', title: '', url: 'https://one.example/sw.js' },
    ],
  },
  'Target.attachToTarget': { sessionId: 'S1' },
};

/** A browser's DevTools as one client sees it: answers every command, records them, and sends events. */
export function fakeDevtools(answers: Answers = ANSWERS) {
  const commands: CdpMessage[] = [];
  let deliver: (text: string) => void = () => {};
  const devtools = {
    async attach(give: (text: string) => void) {
      deliver = give;
      return {
        receive(text: string) {
          const command = JSON.parse(text) as CdpMessage;
          commands.push(command);
          const answer = answers[command.method ?? ''] ?? {};
          const result = typeof answer === 'function' ? answer(command.params) : answer;
          queueMicrotask(() => deliver(JSON.stringify({ id: command.id, result })));
        },
        detach() {},
      };
    },
  } as unknown as CdpMultiplexer;
  const frame = (number: number) =>
    deliver(
      JSON.stringify({
        method: 'Page.screencastFrame',
        sessionId: 'S1',
        params: {
          sessionId: number,
          data: `frame${number}`,
          metadata: { deviceWidth: 800, deviceHeight: 600 },
        },
      }),
    );
  const acked = () =>
    commands
      .filter((command) => command.method === 'Page.screencastFrameAck')
      .map((command) => command.params?.sessionId);
  return { devtools, commands, frame, acked };
}

export function fakeLink() {
  const sent: { type: string; data?: string; [field: string]: unknown }[] = [];
  const closed: { code: number; reason: string }[] = [];
  return {
    sent,
    closed,
    frames: () => sent.filter((message) => message.type === 'frame').map((message) => message.data),
    send: (message: object) => sent.push(message as { type: string }),
    close: (code: number, reason: string) => closed.push({ code, reason }),
  };
}

/** A viewer of the fake browser, with the session's parts it may be given (no agent tab, nothing refused). */
export function startViewer(
  devtools: CdpMultiplexer,
  mode: LiveMode,
  link: ReturnType<typeof fakeLink>,
  session: Partial<ViewerSession> = {},
) {
  return startLiveViewer(
    {
      devtools,
      mode,
      activeTab: () => null,
      egressRefusalOf: () => null,
      stop: async () => {},
      answerHelp: async () => {},
      ...session,
    },
    link,
  );
}
