import { render } from 'preact';
import { endpoints, ProfileCreate } from '../../lib/api';

render(
  <p>
    {Object.keys(endpoints).length}
    {String(ProfileCreate.safeParse({ name: 'x' }).success)}
  </p>,
  document.getElementById('app') as HTMLElement,
);
