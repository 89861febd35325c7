import { expect, it } from 'vitest';
import { ProfileCreate } from '../../lib/api';

it('parses', () => expect(ProfileCreate.safeParse({ name: 'a' }).success).toBe(true));
