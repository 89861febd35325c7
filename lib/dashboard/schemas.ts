import { ROLES } from '../api/roles';
import { Plan } from '../api/schemas/account';
import { Timestamp } from '../api/schemas/common';
import { UsageRow } from '../api/schemas/usage';
import { ApiKey, Role } from '../api/schemas/workspace';
import { z } from '../api/zod';

/**
 * What the dashboard's pages send and receive, shared by the pages (which check a form before sending it) and
 * the service (which checks it again). Messages are whole sentences: the pages show them under the field.
 */

export const MIN_PASSWORD_LENGTH = 10;
/** scrypt reads it all: a cap keeps one request from costing the service more than a long password should. */
const MAX_PASSWORD_LENGTH = 200;

export const Email = z
  .string()
  .check(
    z.trim(),
    z.maxLength(254, 'An email address has at most 254 characters.'),
    z.email('Enter an email address such as name@example.com.'),
  );

export const Password = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters for the password.`),
    z.maxLength(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters for the password.`),
  );

/** Sign-up sets a password, so it must be long enough. */
export const SignUpInput = z.strictObject({ email: Email, password: Password });

/** Sign-in takes any password that was typed: the length rule may have changed since the account was made. */
export const SignInInput = z.strictObject({
  email: Email,
  password: z.string().check(z.minLength(1, 'Enter your password.'), z.maxLength(MAX_PASSWORD_LENGTH)),
});

/**
 * The current password is asked for when there is one. An account made on the command line has none: it sets its
 * first with the email it will sign in with.
 */
export const ChangePasswordInput = z.strictObject({
  current_password: z.optional(
    z.string().check(z.minLength(1, 'Enter your current password.'), z.maxLength(MAX_PASSWORD_LENGTH)),
  ),
  email: z.optional(Email),
  new_password: Password,
});

export const DeleteAccountInput = z.strictObject({
  password: z
    .string()
    .check(z.minLength(1, 'Enter your password to confirm.'), z.maxLength(MAX_PASSWORD_LENGTH)),
});

export const KEY_NAME_MAX = 100;
export const MAX_KEY_LIFETIME_DAYS = 365;

export const MAX_SCOPE_TAGS = 20;

/** What a member or key sees: every profile (null), or the profiles with at least one of 1 to 20 tags. */
export const ScopeChoice = z.nullable(
  z.strictObject({
    tags: z
      .array(
        z
          .string()
          .check(
            z.trim(),
            z.minLength(1, 'A tag cannot be empty.'),
            z.maxLength(40, 'A tag has at most 40 characters.'),
          ),
      )
      .check(
        z.minLength(1, 'Name at least one tag, or leave the field empty for every profile.'),
        z.maxLength(MAX_SCOPE_TAGS, `A scope names at most ${MAX_SCOPE_TAGS} tags.`),
      ),
  }),
);

export const RoleChoice = z.enum(ROLES, 'Choose one of the roles: owner, admin, editor, runner or viewer.');

/**
 * A key: without a role the signed-in person's own (it acts as them); with one, an agent's, a member named as the
 * key with that role and scope (owners and admins).
 */
export const CreateKeyInput = z.strictObject({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Give the key a name, such as the machine or app that will use it.'),
      z.maxLength(KEY_NAME_MAX, `A key's name has at most ${KEY_NAME_MAX} characters.`),
    ),
  role: z.optional(RoleChoice),
  scope: z.optional(ScopeChoice),
  /** Days until the key stops working; absent or null: it does not expire. */
  expires_in_days: z.optional(
    z.nullable(
      z
        .int('Enter the days as a whole number.')
        .check(
          z.minimum(1, 'A key must last at least 1 day.'),
          z.maximum(MAX_KEY_LIFETIME_DAYS, `A key can last at most ${MAX_KEY_LIFETIME_DAYS} days.`),
        ),
    ),
  ),
});

/**
 * The account signed in: what sign-up and sign-in answer. `email` is the name it signs in with: its email, or for an
 * account made on the command line (no email, signed in by a one-time link) its name.
 */
export const SignedInAccount = z.object({
  email: z.string(),
  plan: Plan,
  role: Role,
  /** False for an account made on the command line until its owner sets a password. */
  has_password: z.boolean(),
});

/** Body of POST /dashboard/api/sign-in/link: the token of a one-time sign-in link (`keys sign-in-link`). */
export const SignInLinkInput = z.strictObject({
  token: z.string().check(z.minLength(1, 'The link has no token.'), z.maxLength(100, 'The link is not one.')),
});

/** Who is signed in, and whether new people may sign up. */
export const DashboardStatus = z.object({
  signup: z.enum(['open', 'closed']),
  account: z.nullable(SignedInAccount),
});

/** A key of the workspace as the Keys page lists it: with its member's role and scope, and whose it is. */
export const DashboardKey = z.extend(ApiKey, {
  /** The signed-in person's own key (it acts as them). */
  mine: z.boolean(),
  /** When the Profile Pilot extension last used it (null: never seen from the extension). */
  extension_used_at: z.nullable(Timestamp),
});

export const DashboardKeyList = z.object({ data: z.array(DashboardKey) });

/** A new key: the only answer that holds the key itself. */
export const CreatedDashboardKey = z.object({ ...DashboardKey.shape, key: z.string() });

export const Usage = z.object({
  plan: Plan,
  /** Null: the plan is unlimited (its requests are counted, never refused). */
  hourly_limit: z.nullable(z.number()),
  used_last_hour: z.number(),
  /** Requests per minute, the oldest of the last 60 minutes first. */
  per_minute: z.array(z.number()),
  /** The last hour's requests per member and per key, the most first (a member not owner or admin: their own). */
  by_member: z.array(UsageRow),
  by_key: z.array(UsageRow),
});

export type SignUpInput = z.infer<typeof SignUpInput>;
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;
export type DashboardStatus = z.infer<typeof DashboardStatus>;
export type DashboardKey = z.infer<typeof DashboardKey>;
export type CreatedDashboardKey = z.infer<typeof CreatedDashboardKey>;
export type Usage = z.infer<typeof Usage>;
