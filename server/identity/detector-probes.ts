/**
 * What the third audit's detectors read in a scope beyond detector-page.ts: whether a read-out calls what a page can
 * replace, whether a round trip through a fresh canvas agrees, whether silence stays silent, and (in a window)
 * whether a sandboxed frame gets the identity and whether the cores claimed give that much throughput.
 */
export interface ProbeReading {
  /** Methods and getters a page replaced with spies that fired while the scope's read-outs ran. */
  hooked: string[];
  /** getImageData put into a fresh canvas exports as the canvas itself does; null without a canvas. */
  round_trip: boolean | null;
  /** A new AudioBuffer and a 0 Hz oscillator read as zeros; null without audio (workers). */
  silence: boolean | null;
  /** A sandboxed `srcdoc` frame's cores, and whether it reads one drawing as this scope does; null in workers. */
  sandboxed_frame: { cpu_cores: number; same_canvas: boolean } | null;
  /** The top page's only: the cores it is told of, and the cores of throughput as many workers measured. */
  throughput: { cores: number; measured: number } | null;
}

// Runs in the checked scope: plain JavaScript once serialised, in window and worker scopes alike.
export async function readProbes(): Promise<ProbeReading> {
  const hasDocument = typeof document === 'object';
  const drawing = (width: number, height: number) => {
    const canvas = hasDocument
      ? Object.assign(document.createElement('canvas'), { width, height })
      : new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    const gradient = context.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, '#2a5');
    gradient.addColorStop(1, '#c43');
    context.fillStyle = gradient;
    context.fillRect(0, 0, width, height);
    context.fillStyle = 'rgba(250, 250, 250, 0.7)';
    context.font = '12px sans-serif';
    context.fillText('Identity ✓', 2, 14);
    return { canvas, context };
  };
  const exported = async (canvas: HTMLCanvasElement | OffscreenCanvas) =>
    'toDataURL' in canvas
      ? canvas.toDataURL()
      : new Uint8Array(await (await canvas.convertToBlob()).arrayBuffer()).join();

  const { canvas, context } = drawing(48, 24);
  const hooked: string[] = [];
  const restore: (() => void)[] = [];
  const spy = (target: object | undefined, label: string, name: string, kind: 'value' | 'get') => {
    const descriptor = target && Object.getOwnPropertyDescriptor(target, name);
    const original = descriptor?.[kind] as ((...args: unknown[]) => unknown) | undefined;
    if (!target || !descriptor || !original) return;
    Object.defineProperty(target, name, {
      ...descriptor,
      [kind](this: unknown, ...args: unknown[]) {
        hooked.push(`${label}.${name}`);
        return Reflect.apply(original, this, args);
      },
    });
    restore.push(() => Object.defineProperty(target, name, descriptor));
  };
  const scope = globalThis as unknown as Record<string, { prototype: object } | undefined>;
  for (const owner of ['CanvasRenderingContext2D', 'OffscreenCanvasRenderingContext2D'])
    for (const name of ['drawImage', 'putImageData', 'getImageData'])
      spy(scope[owner]?.prototype, owner, name, 'value');
  for (const owner of ['HTMLCanvasElement', 'OffscreenCanvas'])
    for (const name of ['width', 'height']) spy(scope[owner]?.prototype, owner, name, 'get');
  spy(scope.Document?.prototype, 'Document', 'createElement', 'value');
  spy(Object, 'Object', 'assign', 'value');
  let pending: Promise<unknown> | null = null;
  try {
    if ('toDataURL' in canvas) canvas.toDataURL();
    else pending = canvas.convertToBlob();
  } finally {
    for (const undo of restore) undo();
  }
  await pending;

  const fresh = drawing(48, 24).canvas;
  (fresh.getContext('2d') as CanvasRenderingContext2D).putImageData(context.getImageData(0, 0, 48, 24), 0, 0);
  const roundTrip = (await exported(fresh)) === (await exported(canvas));

  let silence: boolean | null = null;
  if (typeof OfflineAudioContext === 'function') {
    const buffer = new AudioBuffer({ length: 1000, sampleRate: 44100 });
    const copied = new Float32Array(1000);
    buffer.copyFromChannel(copied, 0);
    const audio = new OfflineAudioContext(1, 1000, 44100);
    const oscillator = audio.createOscillator();
    oscillator.frequency.value = 0;
    oscillator.connect(audio.destination);
    oscillator.start();
    const still = await audio.startRendering();
    const zero = (samples: Float32Array) => samples.every((sample) => sample === 0);
    silence = zero(buffer.getChannelData(0)) && zero(copied) && zero(still.getChannelData(0));
  }

  const pixels = context.getImageData(0, 0, 48, 24).data.join();
  const sandboxed = hasDocument ? await sandboxedFrame(pixels, drawing.toString()) : null;
  const throughput = hasDocument && window.top === window ? await measureThroughput() : null;
  return { hooked, round_trip: roundTrip, silence, sandboxed_frame: sandboxed, throughput };

  /** A sandboxed `srcdoc` frame draws the same picture and tells its cores and pixels. */
  async function sandboxedFrame(own: string, draw: string): Promise<ProbeReading['sandboxed_frame']> {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    const script = `const __name = (f) => f; const hasDocument = true; const drawing = ${draw};
      parent.postMessage({ probe: [navigator.hardwareConcurrency, drawing(48, 24).context.getImageData(0, 0, 48, 24).data.join()] }, '*');`;
    frame.srcdoc = `<script>${script.replaceAll('</', '<\\/')}</script>`;
    const answer = new Promise<[number, string] | null>((resolve) => {
      const listen = (event: MessageEvent) => {
        if (event.source !== frame.contentWindow || !event.data?.probe) return;
        removeEventListener('message', listen);
        resolve(event.data.probe);
      };
      addEventListener('message', listen);
      setTimeout(() => resolve(null), 5000);
    });
    document.body.append(frame);
    const seen = await answer;
    frame.remove();
    return seen && { cpu_cores: seen[0], same_canvas: seen[1] === own };
  }

  /**
   * Work done by as many workers as there are cores claimed, each for the same 150 ms, against one worker alone,
   * in cores. Bounded in time whatever the claim.
   */
  async function measureThroughput(): Promise<ProbeReading['throughput']> {
    const cores = Math.min(navigator.hardwareConcurrency, 64);
    const source = `onmessage = (event) => { let done = 0; let x = 0; const end = Date.now() + event.data;
      while (Date.now() < end) { for (let i = 0; i < 2000; i += 1) x = (x + i * i) % 1000003; done += 1; }
      postMessage(done + (x < 0 ? 1 : 0)); };`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const workers = Array.from({ length: cores }, () => new Worker(url));
    const work = async (count: number, ms: number) => {
      const done = await Promise.all(
        workers.slice(0, count).map(
          (worker) =>
            new Promise<number>((resolve) => {
              worker.onmessage = (event) => resolve(event.data);
              worker.postMessage(ms);
            }),
        ),
      );
      return done.reduce((sum, each) => sum + each, 0);
    };
    try {
      await work(cores, 1);
      const alone = await work(1, 150);
      const together = await work(cores, 150);
      return { cores, measured: Math.round((together / Math.max(alone, 1)) * 10) / 10 };
    } finally {
      for (const worker of workers) worker.terminate();
      URL.revokeObjectURL(url);
    }
  }
}
