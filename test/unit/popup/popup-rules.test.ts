import { describe, expect, it } from 'vitest';
import {
  bulkRequest,
  firstPairs,
  numberFor,
  offeredActions,
  type Selected,
  startsWithoutAsking,
} from '../../../components/bulk-rules';
import { mayOf } from '../../../components/may';
import {
  initialFields,
  passwordProblem,
  profileBody,
  proxyChoices,
} from '../../../entrypoints/popup/profile-form-rules';
import {
  bulkSelectionOf,
  everyShownPicked,
  pickOne,
  sameFilter,
} from '../../../entrypoints/popup/profile-list-rules';
import type { Role } from '../../../lib/api/roles';
import type { PlanLimits } from '../../../lib/storage';
import { asRole, profile, proxy } from './harness';

const FREE: PlanLimits = { name: 'free', hourlyLimit: 100, sessionLimit: 2 };
const idle = profile('prf_1', 'Idle');
const running = profile('prf_2', 'Running', { status: 'running' });
const none = { value: '', pasted: '', scripts: {} };

const byIds = (more: Partial<Selected> = {}): Selected => ({
  selection: { ids: [idle.id, running.id] },
  count: 2,
  picked: [idle, running],
  running: 1,
  limits: FREE,
  ...more,
});
const byFilter = (status?: 'idle' | 'running', more: Partial<Selected> = {}): Selected => ({
  selection: { filter: { status } },
  count: 500,
  picked: [],
  running: 0,
  limits: FREE,
  ...more,
});

describe('What a selection may start and stop', () => {
  it('starts the picked profiles not running and stops those running', () => {
    expect(numberFor(byIds(), 'start')).toBe(1);
    expect(numberFor(byIds(), 'stop')).toBe(1);
    expect(bulkRequest(byIds(), 'start', none)).toEqual({ select: { ids: ['prf_1'] }, action: 'start' });
    expect(bulkRequest(byIds(), 'stop', none)).toEqual({ select: { ids: ['prf_2'] }, action: 'stop' });
    expect(bulkRequest(byIds({ picked: [running] }), 'start', none)).toBeNull();
  });

  it('offers no Stop for a filter when nothing runs, and at most what runs', () => {
    expect(numberFor(byFilter(), 'stop')).toBe(0);
    expect(numberFor(byFilter(undefined, { running: 3 }), 'stop')).toBe(3);
    expect(numberFor(byFilter('idle', { running: 3 }), 'stop')).toBe(0);
    expect(numberFor(byFilter('running', { running: 3 }), 'start')).toBe(0);
    expect(numberFor(byFilter(), 'delete')).toBe(500);
  });

  it('asks before a start that outgrows the plan’s room or spends the hour’s requests', () => {
    expect(startsWithoutAsking(byIds(), true)).toBe(true);
    expect(startsWithoutAsking(byIds(), false)).toBe(false);
    expect(startsWithoutAsking(byFilter(), true)).toBe(false);
    expect(startsWithoutAsking(byFilter(undefined, { limits: null }), true)).toBe(true);
  });
});

describe('What a question offers and sends', () => {
  it('sends pasted proxies only one per profile, else the saved proxy, else none', () => {
    const two = byIds();
    expect(bulkRequest(two, 'proxy', { ...none, pasted: 'http://a:1\n\nhttp://b:2\n' })).toEqual({
      select: two.selection,
      action: 'set_proxy',
      proxies: ['http://a:1', 'http://b:2'],
    });
    expect(bulkRequest(two, 'proxy', { ...none, pasted: 'http://a:1' })).toBeNull();
    expect(bulkRequest(two, 'proxy', { ...none, value: 'prx_1' })).toMatchObject({ proxy_id: 'prx_1' });
    expect(bulkRequest(two, 'proxy', none)).toMatchObject({ action: 'clear_proxy' });
  });

  it('adds or removes the tags typed, runs a saved script by name, deletes by force', () => {
    const two = byIds();
    expect(bulkRequest(two, 'tags', { ...none, value: ' a, ,b ' })).toMatchObject({ tags: ['a', 'b'] });
    expect(bulkRequest(two, 'tags', { ...none, value: 'a', removing: true })).toMatchObject({
      action: 'remove_tags',
    });
    expect(bulkRequest(two, 'tags', none)).toBeNull();
    expect(bulkRequest(two, 'run', { ...none, value: 'missing' })).toBeNull();
    const script = { steps: [] } as never;
    expect(bulkRequest(two, 'run', { ...none, value: 'Read', scripts: { Read: script } })).toMatchObject({
      action: 'run',
      name: 'Read',
    });
    expect(bulkRequest(two, 'delete', none)).toMatchObject({ force: true });
  });

  it('offers only the actions the role may take, and no Start or Stop for none', () => {
    const may = (role?: Role) => mayOf(role ? { ...FREE, ...asRole(role) } : FREE);
    expect(offeredActions(byIds(), may())).toHaveLength(7);
    expect(offeredActions(byIds(), may('editor'))).toHaveLength(7);
    expect(offeredActions(byIds(), may('runner'))).toEqual(['start', 'stop', 'run']);
    expect(offeredActions(byIds(), may('viewer'))).toEqual([]);
    expect(offeredActions(byFilter(), may('runner'))).toEqual(['start', 'run']);
  });
});

describe('The profile list’s picking', () => {
  const shown = [idle, running];
  it('ticks the header’s box when all matching are picked, and unticking one keeps the rest read', () => {
    expect(everyShownPicked({ ids: [], allMatching: true }, shown)).toBe(true);
    expect(everyShownPicked({ ids: ['prf_1'], allMatching: false }, shown)).toBe(false);
    expect(pickOne({ ids: [], allMatching: true }, shown, 'prf_1', false)).toEqual({
      ids: ['prf_2'],
      allMatching: false,
    });
  });

  it('acts on all matching by the filter, trimmed, and on picked rows by id', () => {
    const listed = { shown, total: 500, filter: { q: ' shop ', sort: 'name' as const } };
    expect(bulkSelectionOf({ ids: [], allMatching: true }, listed)).toEqual({
      selection: { filter: { q: 'shop', tag: undefined, status: undefined, sort: 'name' } },
      count: 500,
      picked: [],
    });
    expect(bulkSelectionOf({ ids: ['prf_2'], allMatching: false }, listed).count).toBe(1);
    expect(sameFilter({ q: 'a ' }, { q: 'a', sort: 'created' })).toBe(true);
  });
});

describe('The profile form', () => {
  it('sends only what changed, so an untouched proxy keeps its password', () => {
    const saved = profile('prf_1', 'Shop', { proxy: 'http://u@h:1', tags: ['a'] });
    const draft = initialFields(saved);
    expect(profileBody(draft, saved)).toEqual({});
    expect(profileBody({ ...draft, tags: 'a, b' }, saved)).toEqual({ tags: ['a', 'b'] });
    expect(profileBody({ ...draft, proxyPassword: 'p' }, saved)).toEqual({ proxy: 'http://u:p@h:1' });
    expect(profileBody(initialFields(undefined), undefined)).toEqual({ name: '' });
  });

  it('says a typed password was lost or has no user name', () => {
    const draft = {
      ...initialFields(undefined),
      proxyChoice: 'url',
      proxyUrl: 'http://h:1',
      proxyPassword: 'p',
    };
    expect(passwordProblem(draft, [])).toBe('passwordNeedsUser');
    expect(passwordProblem(draft, ['proxyPassword'])).toBe('passwordNotKept');
    expect(passwordProblem({ ...draft, proxyChoice: '' }, [])).toBeUndefined();
  });

  it('offers the profile’s own saved proxy when it is not among those loaded', () => {
    const saved = profile('prf_1', 'Shop', { proxy: 'http://u@far.example:8080', proxy_id: 'prx_900' });
    expect(proxyChoices([proxy('prx_1', 'Berlin')], saved)).toEqual([
      { id: 'prx_900', name: 'far.example:8080' },
      { id: 'prx_1', name: 'Berlin' },
    ]);
    expect(proxyChoices([proxy('prx_900', 'Far')], saved)).toEqual([{ id: 'prx_900', name: 'Far' }]);
  });
});

describe('the preview of pasted lines', () => {
  it('sets the first lines beside the names they go to, in the order shown, five at most', () => {
    const names = ['Seller 1', 'Seller 2', 'Seller 3', 'Seller 4', 'Seller 5', 'Seller 6'];
    const lines = names.map((_, n) => `10.0.0.${n}:8080`);
    expect(firstPairs(names, lines)).toEqual(names.slice(0, 5).map((name, n) => [name, lines[n]]));
    expect(firstPairs(['Only'], lines)).toEqual([['Only', '10.0.0.0:8080']]);
    expect(firstPairs(names, [])).toEqual([]);
  });
});
