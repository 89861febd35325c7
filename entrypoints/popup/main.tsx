import '../../components/styles.css';
import { render } from 'preact';
import { Options } from '../../components/Options';
import { App } from './App';

// The options page runs this same module, so that the popup and it share one script instead of splitting
// into chunks (which would cost the popup's size budget more than the options view itself does).
const onOptionsPage = location.pathname.endsWith('/options.html');
render(onOptionsPage ? <Options /> : <App />, document.getElementById('app') as HTMLElement);
