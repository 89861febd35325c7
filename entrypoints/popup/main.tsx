import { render } from 'preact';
import { endpoints } from '../../lib/api';

render(
  <p>
    {Object.keys(endpoints).length}
    {String(endpoints.createProfile.body.safeParse({ name: 'x' }).success)}
  </p>,
  document.getElementById('app')!,
);
