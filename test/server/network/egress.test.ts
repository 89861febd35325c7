import { describe, expect, it } from 'vitest';
import { EgressRefused } from '../../../server/core/domain-errors';
import { EgressPolicy, EgressSettingError } from '../../../server/core/egress-policy';
import { EgressUnresolved, pinnedLookup, resolveAllowed } from '../../../server/network/egress-lookup';

const NONE = EgressPolicy.parse('');

describe('EgressPolicy', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
  ])('refuses %s by default', (address) => {
    expect(NONE.allows(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(NONE.allows(address)).toBe(true);
    },
  );

  it('allows what the operator names, and only that', () => {
    const loopback = EgressPolicy.parse('loopback');
    expect(loopback.allows('127.0.0.1')).toBe(true);
    expect(loopback.allows('::1')).toBe(true);
    expect(loopback.allows('::ffff:127.0.0.1')).toBe(true);
    expect(loopback.allows('10.0.0.1')).toBe(false);
    expect(loopback.allows('169.254.169.254')).toBe(false);
    const mixed = EgressPolicy.parse(' private , 169.254.169.254/32,127.0.0.3 ');
    expect(mixed.allows('192.168.0.9')).toBe(true);
    expect(mixed.allows('fd00::1')).toBe(true);
    expect(mixed.allows('169.254.169.254')).toBe(true);
    expect(mixed.allows('169.254.169.253')).toBe(false);
    expect(mixed.allows('127.0.0.3')).toBe(true);
    expect(mixed.allows('127.0.0.1')).toBe(false);
  });

  it('says what is wrong with a setting it cannot read', () => {
    expect(() => EgressPolicy.parse('loopback,intranet')).toThrow(EgressSettingError);
    expect(() => EgressPolicy.parse('10.0.0.0/33')).toThrow(/"10.0.0.0\/33", which is neither a CIDR range/);
  });
});

describe('resolveAllowed', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('reads IP addresses in every spelling as the address they are', async () => {
    for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '[::1]'])
      await expect(resolveAllowed(NONE, host, resolver({}))).rejects.toThrow(EgressRefused);
    expect(await resolveAllowed(EgressPolicy.parse('loopback'), '0x7f000001', resolver({}))).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('refuses a name when any of its addresses is forbidden, and pins the one it checked', async () => {
    const answers = resolver({
      'rebind.example': ['93.184.215.14', '127.0.0.1'],
      'public.example': ['93.184.215.14'],
      'metadata.example': ['169.254.169.254'],
    });
    await expect(resolveAllowed(NONE, 'rebind.example', answers)).rejects.toThrow(
      'rebind.example (127.0.0.1) is in the loopback range 127.0.0.0/8, which sessions may not reach on this service; its operator can allow ranges with EGRESS_ALLOW.',
    );
    await expect(resolveAllowed(NONE, 'metadata.example', answers)).rejects.toThrow(
      'metadata.example (169.254.169.254) is in the link-local range 169.254.0.0/16',
    );
    await expect(resolveAllowed(NONE, 'nowhere.example', answers)).rejects.toThrow(EgressUnresolved);
    const checked = await resolveAllowed(NONE, 'public.example', answers);
    // Whatever the name resolves to later, a connection made with the pinned lookup goes to the checked address.
    const lookup = pinnedLookup(checked) as unknown as (
      host: string,
      options: { all?: boolean },
      done: (error: Error | null, address: unknown, family?: number) => void,
    ) => void;
    const single = await new Promise((resolve) =>
      lookup('public.example', {}, (_e, address) => resolve(address)),
    );
    const all = await new Promise((resolve) =>
      lookup('public.example', { all: true }, (_e, list) => resolve(list)),
    );
    expect(single).toBe('93.184.215.14');
    expect(all).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });
});
