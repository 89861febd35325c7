import { describe, expect, it } from 'vitest';
import { keepable, restore, withoutUrlPasswords } from '../../../components/draft-keeping';

describe('what a draft may keep', () => {
  it('cuts the password out of URLs, wherever they are, and keeps the user name', () => {
    expect(withoutUrlPasswords('http://alice:S3cret-pass@proxy.example:8080')).toBe(
      'http://alice@proxy.example:8080',
    );
    expect(withoutUrlPasswords('{"url": "https://u:p%40ss@site.example/x"} and socks5://b:c@h:1')).toBe(
      '{"url": "https://u@site.example/x"} and socks5://b@h:1',
    );
    expect(withoutUrlPasswords('http://proxy.example:8080')).toBe('http://proxy.example:8080');
  });

  it('cuts a password still being typed, before its @', () => {
    expect(withoutUrlPasswords('http://alice:S3cr')).toBe('http://alice');
    // Digits alone after the colon read as a port: host:80 is kept.
    expect(withoutUrlPasswords('http://proxy.example:80')).toBe('http://proxy.example:80');
  });

  it('never keeps a secret field, and notes only its name when it held something', () => {
    const kept = keepable({ name: 'Lab', password: 'S3cret', apiKey: '' }, ['password', 'apiKey']);
    expect(kept).toEqual({ name: 'Lab', '#secretsTyped': 'password' });
    expect(JSON.stringify(kept)).not.toContain('S3cret');
    expect(restore(kept)).toEqual({ fields: { name: 'Lab' }, lost: ['password'] });
    expect(restore({ name: 'Lab' })).toEqual({ fields: { name: 'Lab' }, lost: [] });
  });
});
