// A node:test reporter that prints nothing until the run ends, then each failed test with
// its file and error. A full run prints ~25,000 lines of TAP; CI keeps only part of them,
// so without this list at the end a failure can be out of sight.
import { inspect } from 'node:util';

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    const error = details.error;
    // A suite fails because a test in it did; that test is listed already.
    if (error?.failureType === 'subtestsFailed') continue;
    failed.push({ name, file, error: error?.cause ?? error });
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed:\n`;
  for (const { name, file, error } of failed) {
    const text = inspect(error, { depth: 4 }).split('\n').slice(0, 30).join('\n#     ');
    yield `# ✖ ${name}\n#   ${file ?? '(no file)'}\n#     ${text}\n`;
  }
}
