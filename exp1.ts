import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { CdpPipe } from './server/browser/cdp-pipe';
const srv = createServer((req, res) => {
  if (req.url === '/w.js') { res.setHeader('content-type','text/javascript'); res.end(`onmessage=async()=>{postMessage({ua:navigator.userAgent,b:navigator.userAgentData.brands,p:navigator.platform,hc:navigator.hardwareConcurrency,lang:navigator.languages,tz:Intl.DateTimeFormat().resolvedOptions().timeZone,he:await navigator.userAgentData.getHighEntropyValues(['platformVersion','fullVersionList','architecture'])})}`); return; }
  res.setHeader('content-type','text/html'); res.setHeader('accept-ch','Sec-CH-UA-Platform-Version,Sec-CH-UA-Full-Version-List');
  res.end('<p>hi</p>'); console.log('HEADERS', req.url, JSON.stringify(req.headers));
}).listen(0, async () => {
  const port = (srv.address() as any).port;
  const child = spawn('/usr/lib/chromium/chromium', ['--remote-debugging-pipe','--no-sandbox','--headless=new','--user-data-dir=/tmp/exp/ud'+Date.now(), '--screen-info={1536x864 devicePixelRatio=1.25 colorDepth=30 workAreaTop=0 workAreaBottom=40}', '--window-size=1500,800','--lang=de-DE','--accept-lang=de-DE,de,en','about:blank'], { stdio: ['ignore','ignore','ignore','pipe','pipe'], env: {...process.env, TZ: 'Asia/Tokyo'} });
  const pipe = new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
  console.log(await pipe.send('Browser.getVersion'));
  const { targetInfos } = await pipe.send('Target.getTargets') as any;
  const page = targetInfos.find((t: any) => t.type === 'page');
  const { sessionId } = await pipe.send('Target.attachToTarget', { targetId: page.targetId, flatten: true }) as any;
  const ev = async (e: string) => (await pipe.send('Runtime.evaluate', { expression: e, awaitPromise: true, returnByValue: true }, sessionId) as any).result.value;
  if (process.argv[2]) await pipe.send(process.argv[2] === 'net' ? 'Network.setUserAgentOverride':'Emulation.setUserAgentOverride', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', platform: 'Linux x86_64', acceptLanguage: 'de-DE,de;q=0.9', userAgentMetadata: { brands: [{brand:'Chromium',version:'156'},{brand:'Not_A Brand',version:'99'}], fullVersionList: [{brand:'Chromium',version:'156.0.1.2'}], platform:'Linux', platformVersion:'6.5.0', architecture:'x86', bitness:'64', model:'', mobile:false } }, sessionId);
  await pipe.send('Page.navigate', { url: `http://127.0.0.1:${port}/` }, sessionId);
  await new Promise(r => setTimeout(r, 1000));
  console.log(await ev(`JSON.stringify({ua:navigator.userAgent,b:navigator.userAgentData.brands,p:navigator.platform,lang:navigator.languages,tz:Intl.DateTimeFormat().resolvedOptions().timeZone,loc:Intl.DateTimeFormat().resolvedOptions().locale, s:[screen.width,screen.height,screen.availWidth,screen.availHeight,screen.colorDepth,devicePixelRatio,innerWidth,innerHeight,outerWidth,outerHeight]})`));
  console.log(await ev(`navigator.userAgentData.getHighEntropyValues(['platformVersion','fullVersionList','architecture']).then(JSON.stringify)`));
  console.log(await ev(`new Promise(r=>{const w=new Worker('/w.js');w.onmessage=e=>r(JSON.stringify(e.data));w.postMessage(1)})`));
  console.log(await ev(`(()=>{const c=document.createElement('canvas').getContext('webgl');const d=c.getExtension('WEBGL_debug_renderer_info');return c.getParameter(d.UNMASKED_VENDOR_WEBGL)+' | '+c.getParameter(d.UNMASKED_RENDERER_WEBGL)})()`));
  child.kill(); srv.close();
});
