# What CPython's own parser finds in code blocks, for CodeModelDifferentialTest (run with python3 -c).
# Reads a JSON list of code blocks on stdin and writes a JSON list with, for each block, either
# {"error": "..."} when it is no valid Python, or its facts in the shape the gateway's model reports:
#   imports: what import statements bind, "local=full.name" ("*=module" for a star import; relative
#            modules keep their dots: "from .a import b" binds "b=.a.b", "from . import c" binds "c=.c")
#   calls:   dotted names that are called, as written ("os.system"), when the callee is a name or a
#            chain of attributes of one (so not "f().g()" or "'x'.join()")
#   hosts:   the hosts of string literals that are URLs (scheme://host or //host), lower case
import ast
import json
import re
import sys
from urllib.parse import urlsplit

URL = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]{0,15}:)?//")
HOST = re.compile(r"[a-z0-9.-]{1,253}")


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def host(text):
    text = text.strip()
    if not URL.match(text):
        return None
    try:
        name = urlsplit(text).hostname
    except ValueError:
        return None
    name = (name or "").rstrip(".")
    return name if HOST.fullmatch(name) else None


def facts(code):
    imports, calls, hosts = set(), set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                imports.add(f"{alias.asname}={alias.name}" if alias.asname else f"{top}={top}")
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            prefix = module if module.endswith(".") else module + "."
            for alias in node.names:
                imports.add("*=" + module if alias.name == "*" else f"{alias.asname or alias.name}={prefix}{alias.name}")
        elif isinstance(node, ast.Call):
            name = dotted(node.func)
            if name:
                calls.add(name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            value = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            found = host(value)
            if found:
                hosts.add(found)
    return {"imports": sorted(imports), "calls": sorted(calls), "hosts": sorted(hosts)}


def answer(code):
    try:
        return facts(code)
    except SyntaxError as e:
        return {"error": f"{e.msg} at line {e.lineno}"}


json.dump([answer(code) for code in json.load(sys.stdin)], sys.stdout)
