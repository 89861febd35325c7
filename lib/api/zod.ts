import { z } from 'zod/mini';

// Zod probes `new Function` unless told not to, and MV3's content security policy forbids it.
// Every schema module imports `z` from here so the setting is in force before any schema is built.
z.config({ jitless: true });

export { z };
