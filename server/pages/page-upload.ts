import type { Locator, Page } from 'playwright-core';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_TOTAL_BYTES } from '../../lib/api/inputs/page-tools';
import { PageProblem } from '../core/domain-errors';
import { safeFileName, typeOfName } from '../downloads/download-files';

import { bytes } from './sentences';

interface UploadedFile {
  name: string;
  base64: string;
  type?: string;
}

interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The files a caller sent, decoded and within the bounds (per file and in all), or the sentence of the first
 * that is not. Only the caller's bytes reach the page: never a file of the service's machine.
 */
export function decodeUploads(files: UploadedFile[]): FilePayload[] {
  let total = 0;
  return files.map(({ name, base64, type }) => {
    const text = base64.replace(/\s+/g, '');
    if (!BASE64.test(text) || text.length % 4 === 1)
      throw new PageProblem(`The content of ${JSON.stringify(name)} is not base64.`);
    const buffer = Buffer.from(text, 'base64');
    if (buffer.byteLength > MAX_UPLOAD_FILE_BYTES)
      throw new PageProblem(
        `${JSON.stringify(name)} is ${bytes(buffer.byteLength)}, over the ${bytes(MAX_UPLOAD_FILE_BYTES)} a file may have.`,
      );
    total += buffer.byteLength;
    if (total > MAX_UPLOAD_TOTAL_BYTES)
      throw new PageProblem(`The files are over the ${bytes(MAX_UPLOAD_TOTAL_BYTES)} one call may upload.`);
    const safeName = safeFileName(name);
    return { name: safeName, mimeType: type || typeOfName(safeName), buffer };
  });
}

/** Sets the files on a file input, or on the file chooser the element opens when clicked. */
export async function uploadFiles(
  page: Page,
  target: Locator,
  files: FilePayload[],
  timeout: number,
): Promise<void> {
  const isFileInput = await target.evaluate(
    (element) => element instanceof HTMLInputElement && element.type === 'file',
    undefined,
    { timeout },
  );
  if (isFileInput) {
    await target.setInputFiles(files, { timeout });
    return;
  }
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser', { timeout }).catch(() => {
      throw new PageProblem(
        'The element opened no file chooser; give the ref of a file input or of its button.',
      );
    }),
    target.click({ timeout }),
  ]);
  await chooser.setFiles(files, { timeout });
}
