import { z } from 'zod/mini';
import { describeIssue } from './issue-messages';

// Zod probes `new Function` unless told not to, and MV3's content security policy forbids it.
// Every schema module imports `z` from here so the settings are in force before any schema is built.
z.config({ jitless: true, customError: describeIssue });

export { z };
