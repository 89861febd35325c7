/**
 * A page with what the agent tools act on, its script writing each outcome into the page: a menu shown on hover,
 * a form sent after a confirm() with a file, a double-click and a drag target, a download, a console line and a
 * request with secrets in its headers and address. `/second` is a page to go back from; `/report` the download.
 */
export const AGENT_PAGE = `<!doctype html><title>Agent page</title>
<nav><button id="menu">Menu</button><ul id="items" hidden><li><a href="/second">Pricing</a></li></ul></nav>
<label>Name <input id="who"></label>
<label>Photo <input type="file" id="photo"></label>
<button id="send">Send</button>
<button id="pick">Choose avatar</button><input type="file" id="avatar" hidden><p id="chosen">No avatar</p>
<p id="out">Nothing sent</p>
<p id="dbl">Not double-clicked</p>
<p id="drag" draggable="true">Drag me</p><p id="drop">Drop here</p>
<a href="/report" download="report.txt">Download report</a>
<script>
  const $ = (id) => document.getElementById(id);
  $('menu').onmouseenter = () => { $('items').hidden = false; };
  $('send').onclick = async () => {
    if (!confirm('Send the form?')) { $('out').textContent = 'Not sent'; return; }
    const file = $('photo').files[0];
    const sent = file ? file.name + ' (' + file.type + '): ' + (await file.text()) : 'no file';
    $('out').textContent = 'Sent ' + $('who').value + ' with ' + sent;
    console.log('form sent by ' + $('who').value);
    fetch('/api?token=abc123&page=2', { headers: { Authorization: 'Bearer s3cret', 'X-Trace': 'visible-42' } });
  };
  $('pick').onclick = () => $('avatar').click();
  $('avatar').onchange = () => { $('chosen').textContent = 'Avatar ' + $('avatar').files[0].name; };
  $('dbl').ondblclick = (event) => { $('dbl').textContent = 'Double-clicked' + (event.shiftKey ? ' with Shift' : ''); };
  $('drop').ondragover = (event) => event.preventDefault();
  $('drop').ondrop = (event) => { event.preventDefault(); $('drop').textContent = 'Dropped'; };
</script>`;

export const SECOND_PAGE = '<!doctype html><title>Pricing</title><h1>Pricing</h1>';
export const REPORT = 'quarterly figures: 42\n';
/** A page that raises an alert from an inline script while it loads. */
export const ALERT_AT_LOAD = `<!doctype html><title>Welcome page</title><script>alert('Welcome')</script><h1>Loaded after the alert</h1>`;

export function agentSite(path: string): string {
  if (path.startsWith('/second')) return SECOND_PAGE;
  if (path.startsWith('/report')) return REPORT;
  if (path.startsWith('/alert')) return ALERT_AT_LOAD;
  return AGENT_PAGE;
}
