import { useEffect, useRef, useState } from 'preact/hooks';
import { noteReply } from '../../components/service-down';
import type { Profile } from '../../lib/api/schemas/profiles';
import { connector } from '../../lib/messaging/connector';
import type { WorkerError } from '../../lib/messaging/protocol';
import type { ProfileFilter } from '../../lib/storage';

/** Profiles read at a time: the most the service gives in one page. */
const PAGE = 100;

/**
 * The profiles a filter matches, read a page at a time as far as the table has been scrolled (`want`), kept in
 * the page only: the worker's cached list is the popup's. A new filter starts again from the first page.
 */
export function useProfilePages(filter: ProfileFilter) {
  const [rows, setRows] = useState<Profile[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<WorkerError | null>(null);
  const [busy, setBusy] = useState(false);
  /** The filter's generation, so that a page of an older filter is dropped; the next cursor; a read under way. */
  const state = useRef({ generation: 0, cursor: null as string | null, reading: false });

  async function read(generation: number, first: boolean) {
    state.current.reading = true;
    setBusy(true);
    const cursor = first ? undefined : (state.current.cursor ?? undefined);
    const reply = await connector.send({
      type: 'profiles.search',
      ...filter,
      q: filter.q?.trim() ?? '',
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
      ...(first ? { total: true } : {}),
    });
    noteReply(reply);
    if (generation !== state.current.generation) return;
    state.current.reading = false;
    setBusy(false);
    setError(reply.ok ? null : reply.error);
    if (!reply.ok) return;
    state.current.cursor = reply.value.next_cursor;
    if (first) setTotal(reply.value.total ?? reply.value.data.length);
    setRows((known) => (first ? reply.value.data : [...known, ...reply.value.data]));
  }

  const reload = () => {
    state.current = { generation: state.current.generation + 1, cursor: null, reading: false };
    void read(state.current.generation, true);
  };
  useEffect(reload, [filter]);

  return {
    rows,
    total,
    error,
    busy,
    reload,
    /** Reads the next page if the table shows rows past those read. */
    want(count: number) {
      const { cursor, reading, generation } = state.current;
      if (count > rows.length && cursor && !reading) void read(generation, false);
    },
    /** Puts a changed profile in its place. */
    replace(profile: Profile) {
      setRows((known) => known.map((row) => (row.id === profile.id ? profile : row)));
    },
  };
}
