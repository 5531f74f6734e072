// Runs the Khronos glTF-Validator on each file given; external resources are
// read from the file's folder. Exit code 1 when any file has errors.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        externalResourceFunction: (uri) =>
            readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
    const issues = report.issues;
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos`);
    for (const m of issues.messages.filter((m) => m.severity === 0)) console.log(`  ${m.code} ${m.pointer ?? ''} ${m.message}`);
    if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
