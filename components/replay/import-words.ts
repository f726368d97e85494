// The words of `Import` on the runs list for a file the app refused: named by the file's own name
// once — the server calls it "the uploaded file" (UPLOADED_IMPORT_SOURCE), which the page drops.
import { UPLOADED_IMPORT_SOURCE } from '@/lib/api/routes';

const SOURCE_PREFIX = `${UPLOADED_IMPORT_SOURCE}: `;

/** `file`: the picked file's name (null: not known); `message`: the server's reason */
export function importRefusedText(file: string | null, message: string): string {
  const why = message.startsWith(SOURCE_PREFIX) ? message.slice(SOURCE_PREFIX.length) : message;
  return `${file ?? 'The file'} was not imported: ${why}`;
}
