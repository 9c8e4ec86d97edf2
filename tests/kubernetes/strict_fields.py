#!/usr/bin/python3
"""tests/kubernetes/strict_fields.py - every field of every document is one the Kubernetes API
knows at that place, with a value of the right shape: what `kubectl apply --validate=strict`
refuses and the JSON schemas let through (they allow unknown fields, so a misspelt field would be
dropped silently by the API server). The field tables are the Kubernetes Python client's
(Debian's python3-kubernetes: each model's openapi_types and attribute_map, generated from the
Kubernetes OpenAPI document).

Usage: strict_fields.py FILE...; prints FILE: KIND NAME: PATH: problem per problem; exit 1 if any.
"""
import re
import sys

import kubernetes.client as client
import yaml

PRIMITIVES = {"str": str, "bool": bool, "int": int, "float": (int, float), "datetime": str, "date": str}


def model_class(api_version, kind):
    """V1Pod for v1 Pod, V1Job for batch/v1 Job: the client's naming of a kind's model."""
    version = api_version.split("/")[-1]
    return getattr(client, version[0].upper() + version[1:] + kind, None)


def check(value, type_name, path, problems):
    """Walks value as the client's type_name, adding each unknown field or wrong shape."""
    if value is None or type_name == "object":
        return  # null is "unset"; object: any value (int-or-string, quantities, raw JSON)
    inner = re.fullmatch(r"list\[(.+)\]", type_name)
    if inner:
        if not isinstance(value, list):
            problems.append(f"{path}: a list expected")
            return
        for i, item in enumerate(value):
            check(item, inner.group(1), f"{path}[{i}]", problems)
        return
    inner = re.fullmatch(r"dict\(str, (.+)\)", type_name)
    if inner:
        if not isinstance(value, dict):
            problems.append(f"{path}: a map expected")
            return
        for key, item in value.items():
            check(item, inner.group(1), f"{path}.{key}", problems)
        return
    if type_name in PRIMITIVES:
        ok = isinstance(value, PRIMITIVES[type_name]) and not (
            type_name in ("int", "float") and isinstance(value, bool))
        if not ok:
            problems.append(f"{path}: a {type_name} expected, got {value!r}")
        return
    model = getattr(client, type_name)
    if not isinstance(value, dict):
        problems.append(f"{path}: an object ({type_name}) expected")
        return
    by_json_name = {json: attr for attr, json in model.attribute_map.items()}
    for key, item in value.items():
        attr = by_json_name.get(key)
        if attr is None:
            problems.append(f"{path}.{key}: no such field in {type_name}")
        else:
            check(item, model.openapi_types[attr], f"{path}.{key}", problems)


def main(files):
    failed = False
    for name in files:
        with open(name) as f:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
        for doc in docs:
            what = f"{doc.get('kind')} {doc.get('metadata', {}).get('name')}"
            model = model_class(str(doc.get("apiVersion", "")), str(doc.get("kind", "")))
            if model is None:
                print(f"{name}: {what}: no model for {doc.get('apiVersion')} {doc.get('kind')}")
                failed = True
                continue
            problems = []
            check(doc, model.__name__, doc["kind"], problems)
            for p in problems:
                print(f"{name}: {what}: {p}")
            failed |= bool(problems)
            if not problems:
                print(f"ok {name}: {what}: every field known")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
