// Runs the Khronos glTF-Validator on each file given; external resources are
// read from the file's folder. Prints each file's summary, its errors, and a
// line "  codes: CODE=N ..." counting every issue by its code (all issues
// reported: maxIssues 0), so a test can compare, say, UNUSED_OBJECT between
// an input and an output. Exit code 1 when any file has errors.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
            readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
    const issues = report.issues;
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos`);
    for (const m of issues.messages.filter((m) => m.severity === 0)) console.log(`  ${m.code} ${m.pointer ?? ''} ${m.message}`);
    const counts = new Map();
    for (const m of issues.messages) counts.set(m.code, (counts.get(m.code) ?? 0) + 1);
    console.log(`  codes: ${[...counts].map(([code, n]) => `${code}=${n}`).join(' ')}`);
    if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
