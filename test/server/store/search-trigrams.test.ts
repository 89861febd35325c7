import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import type { Database } from '../../../server/db/driver';
import { createAccountWithKey } from '../../../server/store/accounts';
import { listProfileEntries } from '../../../server/store/profile-page';
import { countProfiles, listProfiles } from '../../../server/store/profiles';
import { everything } from '../../../server/store/scope';
import { searchPieceOf, uncommonPiece } from '../../../server/store/search-trigrams';
import { genericPlan, statementsOf } from '../../support/statement-plans';
import { storeDatabases } from '../../support/store-databases';

describe('the piece of q a search looks up in the trigram index', () => {
  const frequencies = new Map([
    ['sca', 1],
    ['cal', 1],
    ['ale', 1],
    ['000', 0.05],
    ['004', 0.02],
    ['042', 0.01],
    ['pro', 0.5],
  ]);

  it('is the stretch of uncommon trigrams, as q writes it', () => {
    expect(uncommonPiece('Scale 00042', frequencies)).toBe('00042');
    expect(uncommonPiece('SCALE00042', frequencies)).toBe('LE00042');
    expect(uncommonPiece('pro-Zyx', frequencies)).toBe('Zyx');
  });

  it('is the rarest stretch when q has several, a trigram never counted being rarer than any counted', () => {
    expect(uncommonPiece('000 Scale 042', frequencies)).toBe('042');
    expect(uncommonPiece('00042 qqq', frequencies)).toBe('qqq');
  });

  it('is none when every trigram of q is common', () => {
    expect(uncommonPiece('scale', frequencies)).toBeNull();
    expect(uncommonPiece('Scale, PRO', frequencies)).toBeNull();
  });
});

const PROFILES = 2000;

describe.each(storeDatabases('search-trigrams'))('searching profiles on $name', ({ open }) => {
  let db: Database;
  let close: () => Promise<void>;
  let accountId: string;

  beforeAll(async () => {
    ({ db, close } = await open());
    accountId = (await createAccountWithKey(db, systemClock, { plan: 'premium' })).account_id;
    await db.query(
      `insert into profiles (id, account_id, name, tags, notes, created_at, updated_at)
       select 'prf_t' || i, $1, 'Scale ' || lpad(i::text, 5, '0'), '["batch"]', '', now(), now()
         from generate_series(0, ${PROFILES - 1}) i`,
      [accountId],
    );
    await db.exec('analyze profiles');
  }, 120_000);
  afterAll(() => close?.());

  it('looks up only the uncommon piece of q, or nothing when q is in most profiles', async () => {
    expect('00042').toContain(await searchPieceOf(db, 'Scale 00042'));
    expect(await searchPieceOf(db, 'SCALE')).toBeNull();
  });

  it('finds and counts what a search by the whole pattern finds, by a plan that reads neither every match nor the account', async () => {
    const reader = everything(accountId);
    const matching = {
      'Scale 00042': 1,
      'scale 0199': 10,
      CALE: PROFILES,
      batch: PROFILES,
      'Scale 10000': 0,
    };
    for (const [q, count] of Object.entries(matching)) {
      const page = { limit: 50, after: null, q };
      expect(await countProfiles(db, reader, { q })).toBe(count);
      const sent = await statementsOf(db, (spy) => listProfileEntries(spy, reader, page));
      const [listed] = sent.filter(({ sql }) => sql.includes('search_text'));
      const whole = await listProfiles(db, reader, page);
      expect((await listProfileEntries(db, reader, page)).entries.map((entry) => entry.id)).toEqual(
        whole.data.map((profile) => profile.id),
      );
      const plan = await genericPlan(db, listed?.sql ?? '', listed?.params ?? []);
      expect(plan).not.toMatch(/Seq Scan on profiles/);
      if (q === 'Scale 00042') expect(plan).toContain('profiles_search');
    }
  });
});
