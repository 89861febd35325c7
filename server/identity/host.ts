import { availableParallelism, totalmem } from 'node:os';

/** Chromium's bounds for `navigator.deviceMemory` on a desktop. */
const LEAST_GB = 0.25;
const MOST_GB = 32;

/**
 * The `navigator.deviceMemory` this host's Chromium shows: its memory in MiB rounded to the nearest power of two
 * (Blink's ApproximatedDeviceMemory). Claimed as it is: another size would be contradicted by the JavaScript heap
 * limit, which V8 derives from the same memory (4 GB of heap from 16 GB up).
 */
export function hostMemoryGb(bytes = totalmem()): number {
  const mib = bytes / 2 ** 20;
  const lower = 2 ** Math.floor(Math.log2(mib));
  const nearest = mib - lower < lower * 2 - mib ? lower : lower * 2;
  return Math.min(MOST_GB, Math.max(LEAST_GB, nearest / 1024));
}

/**
 * The most cores an identity claims on this host: a page that runs as many workers as it is told there are cores
 * measures the throughput the host gives, and more cores than that are a claim it contradicts.
 */
export function hostCores(): number {
  return availableParallelism();
}
