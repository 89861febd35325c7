import { Ref, UploadedFile } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { refsOf } from '../page-refs';
import { decodeUploads, uploadFiles } from '../page-upload';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const fileUpload = definePageTool({
  name: 'browser_file_upload',
  title: 'Upload files',
  description: 'Gives base64 files (512 KB each, 700 KB in all) to ref’s file input.',
  input: { ref: Ref, files: z.array(UploadedFile).check(z.minLength(1), z.maxLength(10)) },
  advertised: { ref: Ref, files: z.array(z.object({}).check(z.describe('name, base64, type? (MIME)'))) },
  async run(tab, args) {
    const files = decodeUploads(args.files);
    await uploadFiles(
      tab.current,
      await refsOf(tab.current).locate(args.ref, undefined),
      files,
      ELEMENT_TIMEOUT,
    );
    return where(tab.current, `Uploaded ${files.map((file) => JSON.stringify(file.name)).join(', ')}.`);
  },
});
