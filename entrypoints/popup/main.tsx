import '../../components/styles.css';
import { render } from 'preact';
import { Options } from '../../components/Options';
import { App } from './App';

// The options page runs this same module, so that the popup and it share one script instead of splitting
// into chunks (which would cost the popup's size budget more than the options view itself does). The manager's
// page loads it too, for the modules it shares with the popup (wxt.config.ts), and draws itself.
const page = location.pathname;
if (!page.endsWith('/manager.html'))
  render(
    page.endsWith('/options.html') ? <Options /> : <App />,
    document.getElementById('app') as HTMLElement,
  );
