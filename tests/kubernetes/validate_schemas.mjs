// tests/kubernetes/validate_schemas.mjs - checks every document of the given YAML files against the
// Kubernetes JSON schema of its apiVersion and kind, as kubernetes-models ships it (compiled from
// the Kubernetes OpenAPI document): field types, required fields, enums and formats. Unknown fields
// pass here (the schemas allow them); strict_fields.py checks those.
// Usage: node validate_schemas.mjs FILE...; prints FILE:LINE: KIND NAME: error per problem, one "ok"
// line per valid document; exit 1 when any document is invalid.
import { readFileSync } from "node:fs";
import { LineCounter, parseAllDocuments } from "yaml";

let failed = false;
function report(file, line, what, message) {
  console.log(`${file}:${line}: ${what}: ${message}`);
  failed = true;
}

for (const file of process.argv.slice(2)) {
  const lines = new LineCounter();
  const docs = parseAllDocuments(readFileSync(file, "utf8"), { lineCounter: lines });
  for (const doc of docs) {
    const line = lines.linePos(doc.range[0]).line;
    if (doc.errors.length) {
      report(file, line, "YAML", doc.errors[0].message);
      continue;
    }
    const obj = doc.toJS();
    if (obj === null) continue; // an empty document (a trailing ---)
    const what = `${obj.kind} ${obj.metadata?.name ?? "(no name)"}`;
    if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") {
      report(file, line, what, "no apiVersion or kind");
      continue;
    }
    let Model;
    try {
      Model = (await import(`kubernetes-models/${obj.apiVersion}`))[obj.kind];
    } catch {
      Model = undefined;
    }
    if (!Model) {
      report(file, line, what, `no Kubernetes schema for ${obj.apiVersion} ${obj.kind}`);
      continue;
    }
    try {
      new Model(obj).validate();
      console.log(`ok ${file}:${line}: ${what} (${obj.apiVersion})`);
    } catch (e) {
      report(file, line, what, e.message);
    }
  }
}
process.exit(failed ? 1 : 0);
