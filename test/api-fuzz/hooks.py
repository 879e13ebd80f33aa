# Schemathesis hooks for devtrail (loaded by schemathesis.toml).
#
# Request bodies with a "__proto__" key, or a "constructor" key holding "prototype", are
# refused by design on the ingest routes (400 "Malformed JSON body": prototype
# poisoning, docs/api.md), anywhere in the body. JSON Schema cannot say so for the
# free-form objects (metadata, context, drain "proxy"), so such bodies are not generated.
import schemathesis


def _poisoned(value):
    if isinstance(value, dict):
        if "__proto__" in value:
            return True
        if isinstance(value.get("constructor"), dict) and "prototype" in value["constructor"]:
            return True
        return any(_poisoned(v) for v in value.values())
    if isinstance(value, list):
        return any(_poisoned(v) for v in value)
    return False


@schemathesis.hook
def filter_body(context, body):
    return not _poisoned(body)
