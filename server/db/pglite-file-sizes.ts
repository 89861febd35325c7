/** Emscripten's whence for a seek from a file's end. */
const SEEK_END = 2;

type Stream = { node: object };
type Operation = (...args: never[]) => unknown;

/** The parts of Emscripten's NODEFS this touches: its file operations, which every file node shares. */
export interface EmscriptenNodeFsFiles {
  stream_ops: {
    llseek: (stream: Stream, offset: number, whence: number) => number;
    write: (stream: Stream, ...rest: never[]) => number;
    setattr?: Operation;
  };
  node_ops: Partial<Record<'setattr' | 'mknod' | 'rename' | 'unlink' | 'rmdir' | 'symlink', Operation>>;
}

/**
 * PostgreSQL asks a relation's size (a seek to its file's end) for every relation a statement plans or scans, and
 * NODEFS answers each seek with an fstat system call: a fifth of the CPU of a list request on PGlite. A file's size
 * is kept here from its first seek until something changes it through this file system: a write to that file, or
 * any truncate, new, renamed or removed file (rare, and then every size is asked again). This file system is the
 * only writer of the database's files, whose data dir one process holds.
 */
export function keepFileSizes(nodefs: EmscriptenNodeFsFiles): void {
  let sizes = new WeakMap<object, number>();
  const streams = nodefs.stream_ops;
  const { llseek, write } = streams;
  streams.llseek = (stream, offset, whence) => {
    if (whence !== SEEK_END) return llseek(stream, offset, whence);
    let size = sizes.get(stream.node);
    if (size === undefined) {
      size = llseek(stream, 0, SEEK_END);
      sizes.set(stream.node, size);
    }
    // A seek before the start fails as NODEFS fails it.
    return size + offset < 0 ? llseek(stream, offset, whence) : size + offset;
  };
  streams.write = (stream, ...rest) => {
    try {
      return write(stream, ...rest);
    } finally {
      sizes.delete(stream.node);
    }
  };
  const forgettingAll =
    (operation: Operation): Operation =>
    (...args) => {
      try {
        return operation(...args);
      } finally {
        sizes = new WeakMap();
      }
    };
  if (streams.setattr) streams.setattr = forgettingAll(streams.setattr);
  for (const name of ['setattr', 'mknod', 'rename', 'unlink', 'rmdir', 'symlink'] as const) {
    const operation = nodefs.node_ops[name];
    if (operation) nodefs.node_ops[name] = forgettingAll(operation);
  }
}
