import { z } from '../zod';
import { DisplayName, Tags } from './common';
import { Notes, ProxyUrl } from './profiles';

/**
 * One row of POST /v1/profiles/import: a profile's name, its proxy as people write one (the saved proxy with the
 * same address and credentials is used, else one is saved), its tags and notes. An identity is generated for each.
 */
export const ProfileSheetRow = z.strictObject({
  name: DisplayName,
  proxy: z.optional(z.nullable(ProxyUrl)),
  tags: z.optional(Tags),
  notes: z.optional(Notes),
});

export type ProfileSheetRow = z.output<typeof ProfileSheetRow>;
