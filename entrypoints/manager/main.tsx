import '../../components/styles.css';
import './manager.css';
import { render } from 'preact';
import { Manager } from './Manager';

render(<Manager />, document.getElementById('app') as HTMLElement);
