import '../../components/styles.css';
import { render } from 'preact';
import { Options } from '../../components/Options';

render(<Options />, document.getElementById('app') as HTMLElement);
