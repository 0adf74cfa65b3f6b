"""A small JSON Schema validator (standard library only) for the part of draft 2020-12 that
docs/records.schema.json uses: type, const, enum, minimum, maximum, minLength, pattern, items,
minItems, maxItems, uniqueItems, properties, required, additionalProperties, propertyNames, oneOf,
anyOf, allOf, not, if/then/else and local $ref. A keyword it does not know is an error, so that the
schema cannot quietly use more than is checked.

    schema_errors(schema, value) -> ["$.moves[0]: ... does not match ...", ...]   ([] when valid)
"""

from __future__ import annotations

import re

KNOWN = {"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "type", "const", "enum", "minimum",
         "maximum", "minLength", "pattern", "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
         "additionalProperties", "propertyNames", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$ref"}
TYPES = {"null": lambda v: v is None, "boolean": lambda v: isinstance(v, bool),
         "integer": lambda v: type(v) is int, "number": lambda v: type(v) in (int, float),
         "string": lambda v: isinstance(v, str), "array": lambda v: isinstance(v, list),
         "object": lambda v: isinstance(v, dict)}


def schema_errors(schema: dict, value: object) -> list[str]:
    return _errors(schema, value, schema, "$")


def _equal(one: object, other: object) -> bool:
    """JSON equality: true is not 1."""
    return type(one) is type(other) and one == other if isinstance(one, bool) or isinstance(other, bool) \
        else one == other


def _pattern(pattern: str, text: str) -> bool:
    """ECMA-262 `$` ends the text, where Python's would also match before a final line break."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.search(pattern, text) is not None


def _errors(schema: dict | bool, value: object, root: dict, where: str) -> list[str]:
    if schema is True:
        return []
    if schema is False:
        return [f"{where}: nothing is allowed here"]
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"schema keywords this checker does not know: {sorted(unknown)} at {where}")
    errors: list[str] = []
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        errors += _errors(target, value, root, where)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[kind](value) for kind in types):
            return errors + [f"{where}: {value!r:.60} is not of type {', '.join(types)}"]
    if "const" in schema and not _equal(value, schema["const"]):
        errors.append(f"{where}: {value!r:.60} is not {schema['const']!r}")
    if "enum" in schema and not any(_equal(value, option) for option in schema["enum"]):
        errors.append(f"{where}: {value!r:.60} is not one of {schema['enum']}")
    number = type(value) in (int, float)
    if number and "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{where}: {value} is below {schema['minimum']}")
    if number and "maximum" in schema and value > schema["maximum"]:
        errors.append(f"{where}: {value} is above {schema['maximum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{where}: {value!r} is too short")
        if "pattern" in schema and not _pattern(schema["pattern"], value):
            errors.append(f"{where}: {value!r:.60} does not match {schema['pattern']}")
    if isinstance(value, list):
        if "items" in schema:
            for index, item in enumerate(value):
                errors += _errors(schema["items"], item, root, f"{where}[{index}]")
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            errors.append(f"{where}: {len(value)} items")
        if schema.get("uniqueItems") and len({repr(item) for item in value}) != len(value):
            errors.append(f"{where}: items repeated")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: no {key!r}")
        for key, item in value.items():
            if "propertyNames" in schema:
                errors += _errors(schema["propertyNames"], key, root, f"{where} key {key!r}")
            if key in properties:
                errors += _errors(properties[key], item, root, f"{where}.{key}")
            elif "additionalProperties" in schema:
                errors += _errors(schema["additionalProperties"], item, root, f"{where}.{key}")
    for index, part in enumerate(schema.get("allOf", [])):
        errors += _errors(part, value, root, where)
    if "anyOf" in schema and not any(not _errors(part, value, root, where) for part in schema["anyOf"]):
        errors.append(f"{where}: matches none of anyOf")
    if "oneOf" in schema:
        matching = [part for part in schema["oneOf"] if not _errors(part, value, root, where)]
        if len(matching) != 1:
            errors.append(f"{where}: matches {len(matching)} of oneOf, not one")
    if "not" in schema and not _errors(schema["not"], value, root, where):
        errors.append(f"{where}: matches what is excluded")
    if "if" in schema:
        branch = "then" if not _errors(schema["if"], value, root, where) else "else"
        if branch in schema:
            errors += _errors(schema[branch], value, root, where)
    return errors
